import { lazyPage, type WebModule } from '@db8/web/kit';
import './question.css';

const QuestionRoom = lazyPage(() => import('./QuestionRoom.tsx').then((m) => m.QuestionRoom));
const CreateQuestion = lazyPage(() => import('./CreateQuestion.tsx').then((m) => m.CreateQuestion));
const QuestionsPage = lazyPage(() => import('./QuestionsPage.tsx').then((m) => m.QuestionsPage));

// Swarm questions (seed 003): rooms open from the swarm stream (POST /v1/swarm/questions), not from
// POST /v1/rooms, so the lobby's create form for them is the ask form; the module also has its own
// page to list and ask, and the answer room view.
export const question: WebModule = {
  protocol: 'question',
  RoomView: QuestionRoom,
  CreateForm: CreateQuestion,
  routes: [{ path: '/questions', page: () => <QuestionsPage /> }],
  nav: [{ href: '/questions', label: 'Questions' }],
};
