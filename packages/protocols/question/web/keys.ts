import type { ListFilter } from './api.ts';

// The question module's query keys, in one place (reads through @db8/web/kit's TanStack Query).

export const questionKeys = {
  /** This node's swarm identity and whether it has a transport. */
  node: () => ['swarm', 'node'] as const,
  questions: (f: ListFilter) =>
    ['swarm', 'questions', { scope: f.scope ?? '', tag: f.tag ?? '', status: f.status ?? 'active' }] as const,
  allQuestions: () => ['swarm', 'questions'] as const,
};
