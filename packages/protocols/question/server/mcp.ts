import type { ModuleTool, RestCaller, RestResult } from '@db8/server/kit';
import { z } from 'zod';
import type { QuestionView } from '../rules/index.ts';
import { AskDraftSchema } from './node-sign.ts';
import { SCOPES } from './subjects.ts';

/**
 * Swarm questions for MCP agents. Question rooms take no actions through the generic act route
 * (their relay seat is reserved for the stream), so agents ask and answer through these tools,
 * which post to the swarm REST ingest: the node signs the agent's drafts, the gate checks them
 * like any other input, and the answer is what this node's fold made of it.
 */

const enc = encodeURIComponent;
const Qid = z.string().min(1).max(200).describe('the question id (from swarm_list or swarm_ask)');
const Labels = z.array(z.string().min(1).max(200)).max(20);

type Room = { room: QuestionView };

/** Join (when this node has not) then answer: the MCP tool's and the model participant's path. */
export async function answerIn(a: Record<string, unknown>, rest: RestCaller): Promise<RestResult<unknown>> {
  const qid = String(a.question_id);
  const path = `/v1/swarm/questions/${enc(qid)}`;
  const [room, node] = await Promise.all([
    rest.get<Room>(path),
    rest.get<{ participant_id: string }>('/v1/swarm/node'),
  ]);
  if (!room.ok) return room;
  if (!node.ok) return node;
  const me = node.body.participant_id;
  const q = room.body.room.question;
  if (q.asker !== me && !room.body.room.participants.some((p) => p.id === me)) {
    const joined = await rest.post(`${path}/inputs`, {
      draft: {
        type: 'swarm/room-join',
        'responder/models': (a.models as string[] | undefined) ?? [],
        'responder/languages':
          (a.languages as string[] | undefined) ?? (q.languages.length ? q.languages : ['en']),
        'responder/tags': q.tags,
      },
    });
    if (!joined.ok) return joined;
  }
  return rest.post(`${path}/inputs`, {
    draft: {
      type: 'swarm/room-message',
      'message/kind': a.kind ?? 'answer',
      'message/text': a.text,
      'origin/class': a.origin_class ?? 'node-generated',
      'origin/speaker': a.speaker,
    },
  });
}

export const questionMcpTools: readonly ModuleTool[] = [
  {
    name: 'swarm_ask',
    title: 'Ask the swarm a question',
    description:
      'Publish a question to the swarm (every node opens its answer room). The node signs it with your own ' +
      'key on that node (you are the asker). Returns {question_id, status, stream_seq} or {error:{code,message}}.',
    inputSchema: AskDraftSchema.shape,
    call: (a, rest) => rest.post('/v1/swarm/questions', { ask: a }),
  },
  {
    name: 'swarm_list',
    title: 'List swarm questions',
    description: "Questions this node holds (its copies of the swarm's answer rooms), newest first.",
    inputSchema: {
      scope: z.enum(SCOPES).optional(),
      tag: z.string().min(1).max(200).optional(),
      status: z.enum(['active', 'open', 'closed', 'all']).optional().describe('default active'),
    },
    readOnly: true,
    call: (a, rest) => {
      const q = new URLSearchParams();
      for (const k of ['scope', 'tag', 'status']) if (typeof a[k] === 'string') q.set(k, a[k] as string);
      return rest.get(`/v1/swarm/questions${q.size ? `?${q}` : ''}`);
    },
  },
  {
    name: 'swarm_room',
    title: 'Read an answer room',
    description:
      'The room: question, participants, messages (with origin class), summaries, secretary, close.',
    inputSchema: { question_id: Qid },
    readOnly: true,
    call: (a, rest) => rest.get(`/v1/swarm/questions/${enc(String(a.question_id))}`),
  },
  {
    name: 'swarm_answer',
    title: 'Answer a swarm question',
    description:
      'Post a message in an answer room, joining first if this node has not joined (models, languages ' +
      "and the question's tags are the join's filters). Signed by the node. kind: answer, follow-up or " +
      'clarification; origin_class: node-generated (default) for a model, node-mediated-human for a person.',
    inputSchema: {
      question_id: Qid,
      text: z.string().min(1).max(8000),
      speaker: z.string().min(1).max(200).describe('who speaks: your model label or name'),
      kind: z.enum(['answer', 'follow-up', 'clarification']).optional(),
      origin_class: z.enum(['node-generated', 'node-mediated-human', 'human-live']).optional(),
      models: Labels.optional(),
      languages: Labels.optional(),
    },
    call: answerIn,
  },
  {
    name: 'swarm_input',
    title: 'Post any answer-room input',
    description:
      'For the asker or secretary: a summary ({type:"swarm/question-summary", "author/role", status, ' +
      '"content/facts", "content/hypotheses", "content/recommendations", "content/uncertainty"}), a close ' +
      '({type:"swarm/question-close", "closed-by/role", resolution, "accepted-summary/id"?}), a verdict, ' +
      'a delegation… as `draft` (the node signs), or a complete `input` you signed yourself.',
    inputSchema: {
      question_id: Qid,
      draft: z
        .object({ type: z.string().min(1).max(64) })
        .catchall(z.unknown())
        .optional(),
      input: z.record(z.string(), z.unknown()).optional(),
    },
    call: (a, rest) =>
      rest.post(
        `/v1/swarm/questions/${enc(String(a.question_id))}/inputs`,
        a.input !== undefined ? { input: a.input } : { draft: a.draft },
      ),
  },
];
