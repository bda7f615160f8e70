import { lazyPage, type WebModule } from '../module.tsx';
import './question.css';

const QuestionRoom = lazyPage(() => import('./QuestionRoom.tsx').then((m) => m.QuestionRoom));
const QuestionsPage = lazyPage(() => import('./QuestionsPage.tsx').then((m) => m.QuestionsPage));

// Swarm questions (seed 003): rooms open from the swarm stream (POST /v1/swarm/questions), never from
// the lobby's create form, so the module has its own page to list and ask, and the answer room view.
export const question: WebModule = {
  protocol: 'question',
  RoomView: QuestionRoom,
  routes: [{ path: '/questions', page: () => <QuestionsPage /> }],
  nav: [{ href: '/questions', label: 'Questions' }],
};
