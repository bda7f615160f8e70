import { lazyPage, titleFromField, type WebModule } from '@db8/web/kit';
import './debate.css';

const CreateDebate = lazyPage(() => import('./CreateDebate.tsx').then((m) => m.CreateDebate));
const DebateRoom = lazyPage(() => import('./DebateRoom.tsx').then((m) => m.DebateRoom));
const Leaderboard = lazyPage(() => import('./Leaderboard.tsx').then((m) => m.Leaderboard));
const ProfileSection = lazyPage(() => import('./ProfileSection.tsx').then((m) => m.DebateProfileSection));
const ResultsPage = lazyPage(() => import('./ResultsPage.tsx').then((m) => m.ResultsPage));

// Debate (seed 000): the barrier room, a results page per room and the Elo leaderboard.
export const debate: WebModule = {
  protocol: 'debate',
  RoomView: DebateRoom,
  CreateForm: CreateDebate,
  drivers: true,
  routes: [
    { path: '/leaderboard', page: () => <Leaderboard /> },
    { path: '/rooms/$id/results', page: (p) => <ResultsPage key={p.id} roomId={p.id!} /> },
  ],
  nav: [{ href: '/leaderboard', label: 'Leaderboard' }],
  ProfileSection,
  titleFromConfig: titleFromField('topic'),
};
