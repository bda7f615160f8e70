import type { WebModule } from '../module.tsx';
import { CreateDebate } from './CreateDebate.tsx';
import { DebateRoom } from './DebateRoom.tsx';
import { Leaderboard } from './Leaderboard.tsx';
import { ResultsPage } from './ResultsPage.tsx';
import './debate.css';

// Debate (seed 000): the barrier room, a results page per room and the Elo leaderboard.
export const debate: WebModule = {
  protocol: 'debate',
  RoomView: DebateRoom,
  CreateForm: CreateDebate,
  drivers: true,
  routes: [
    { path: '/leaderboard', page: () => <Leaderboard /> },
    { path: '/rooms/:id/results', page: (p) => <ResultsPage key={p.id} roomId={p.id!} /> },
  ],
  nav: [{ href: '/leaderboard', label: 'Leaderboard' }],
};
