import { personalClient } from '@db8/web/kit';
import {
  type AskDraft,
  IngestAnswerSchema,
  QuestionListSchema,
  type QuestionView,
  type Scope,
  SwarmNodeSchema,
} from '../rules/index.ts';

// The swarm REST (docs/swarm.md "REST") through the SDK's client: the person's credential, a typed
// Db8Error on refusal, every reply parsed with the protocol package's own zod schemas. Writes are
// drafts the node completes and signs with its node key; the answer is what this node's fold made
// of the input, so the room's socket shows the entry right after.

const enc = encodeURIComponent;

export interface ListFilter {
  scope?: Scope | '';
  tag?: string;
  status?: 'active' | 'open' | 'closed' | 'all';
}

/** A room input draft: its `type` and its own fields (the node fills ids, time, sender, signature). */
export type InputDraft = { type: string } & Record<string, unknown>;

export const swarmApi = {
  list: (f: ListFilter) => {
    const q = new URLSearchParams();
    if (f.scope) q.set('scope', f.scope);
    if (f.tag) q.set('tag', f.tag);
    q.set('status', f.status ?? 'active');
    return personalClient()
      .request(QuestionListSchema, 'GET', `/v1/swarm/questions?${q}`)
      .then((r) => r.questions);
  },
  node: () => personalClient().request(SwarmNodeSchema, 'GET', '/v1/swarm/node'),
  ask: (ask: AskDraft) =>
    personalClient().request(IngestAnswerSchema, 'POST', '/v1/swarm/questions', { ask }),
  input: (questionId: string, draft: InputDraft) =>
    personalClient().request(IngestAnswerSchema, 'POST', `/v1/swarm/questions/${enc(questionId)}/inputs`, {
      draft,
    }),
};

/** The room view arrives over the socket as `unknown`; this tells a question room's view apart. */
export function isQuestionView(v: unknown): v is QuestionView {
  return (
    typeof v === 'object' &&
    v !== null &&
    'question' in v &&
    'messages' in v &&
    'summaries' in v &&
    'profiles' in v
  );
}

/** A refusal as the person reads it: the server's code first (`NOT_ADMITTED: … has not joined`). */
export function refusalText(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return err.code ? `${err.code}: ${err.message ?? ''}` : String(err.message ?? e);
}

/** did:key ids are long; the page shows the tail, the full id in the title. */
export const short = (id: string): string => (id.length > 28 ? `…${id.slice(-12)}` : id);
