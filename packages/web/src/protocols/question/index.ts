import type { WebModule } from '../module.tsx';

// Swarm questions: rooms open from the swarm stream (POST /v1/swarm/questions), never from the
// create form; until the answer-room page exists the generic room shows the log and the view.
export const question: WebModule = { protocol: 'question' };
