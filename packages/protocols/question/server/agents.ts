import { Budget, type CallError, type CallRecord } from '@db8/agents';
import type { Env, ZodTypeProvider } from '@db8/server/kit';
import {
  ApiError,
  DriverSpecSchema,
  providerFor,
  RestCaller,
  type RestResult,
  requireAdmin,
} from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { participantAnswer, type RoomDigest, secretarySummary } from '../agent/index.ts';
import type { QuestionView } from '../rules/index.ts';
import { answerIn } from './mcp.ts';

/**
 * The module's model agents (docs/swarm.md "Secretary and model participants"). Question rooms
 * have no driver seats (they fold from the stream), so a model speaks through the same REST ingest
 * as everyone: this node runs one structured call, then posts the result as a node-signed draft —
 * a summary for the secretary, a join and an answer for a participant. A failed or invalid reply
 * is recorded (GET /v1/swarm/model-calls) and answered 502 MODEL_FAILED; nothing is published.
 */

const tags = ['swarm'];
const Params = z.object({ qid: z.string().min(1).max(200) });
const BodySchema = z.discriminatedUnion('role', [
  z
    .object({
      role: z.literal('secretary'),
      driver: DriverSpecSchema,
      status: z.enum(['intermediate', 'final']).default('intermediate'),
      /** The role the summary is signed in: the node's key must hold it in the room. */
      author_role: z.enum(['asker', 'secretary', 'participant']).default('secretary'),
    })
    .strict(),
  z
    .object({
      role: z.literal('participant'),
      driver: DriverSpecSchema,
      /** `origin/speaker`; default the driver's model (or provider) label. */
      speaker: z.string().min(1).max(200).optional(),
    })
    .strict(),
]);

export interface ModelCall {
  at: number;
  question_id: string;
  role: 'secretary' | 'participant';
  ok: boolean;
  error: CallError | null;
  record: CallRecord;
  published: unknown;
}

const MAX_CALLS = 200;

export function digestOf(v: QuestionView): RoomDigest {
  return {
    question: { text: v.question.text, tags: v.question.tags },
    messages: v.messages.map((m) => ({ kind: m.kind, speaker: m.speaker, origin: m.origin, text: m.text })),
    summaries: v.summaries.map((s) => ({
      facts: s.facts,
      hypotheses: s.hypotheses,
      uncertainty: s.uncertainty,
    })),
  };
}

const fail = (r: RestResult<unknown>) => {
  if (r.ok) return;
  const e = (r.body as { error: { code: string; message: string; details?: unknown } }).error;
  throw new ApiError(r.status, e.code, e.message, e.details);
};

export function modelRoutes(root: FastifyInstance, env: Env): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const calls: ModelCall[] = [];
  const remember = (c: ModelCall) => {
    calls.push(c);
    if (calls.length > MAX_CALLS) calls.shift();
  };

  app.get(
    '/v1/swarm/model-calls',
    { schema: { tags, summary: "This node's recent model-agent calls (failures included), newest last" } },
    async (req) => {
      requireAdmin(req);
      return { calls };
    },
  );

  app.post(
    '/v1/swarm/questions/:qid/model',
    {
      schema: {
        tags,
        summary: 'A model secretary summarises, or a model participant answers (node-signed)',
        params: Params,
        body: BodySchema,
      },
    },
    async (req) => {
      requireAdmin(req);
      const qid = req.params.qid;
      const rest = new RestCaller(root, req.headers.authorization ?? null);
      const room = await rest.get<{ room: QuestionView }>(`/v1/swarm/questions/${encodeURIComponent(qid)}`);
      fail(room);
      const view = (room as { body: { room: QuestionView } }).body.room;
      if (view.status !== 'open') throw new ApiError(409, 'ROOM_CLOSED', `question ${qid} is ${view.status}`);
      const b = req.body;
      const budget = b.driver.budget ? new Budget({ room: b.driver.budget }) : Budget.unlimited();
      const provider = providerFor(b.driver, budget, { env });
      const digest = digestOf(view);
      const out =
        b.role === 'secretary'
          ? await secretarySummary(digest, provider)
          : await participantAnswer(digest, provider, b.driver.persona ? { persona: b.driver.persona } : {});
      const base = { at: Date.now(), question_id: qid, role: b.role, record: out.record };
      if (!out.ok) {
        remember({ ...base, ok: false, error: out.error, published: null });
        throw new ApiError(
          502,
          'MODEL_FAILED',
          `the model call failed (${out.error.code}): nothing was published`,
          {
            call: out.record,
          },
        );
      }
      let published: RestResult<unknown>;
      if (b.role === 'secretary') {
        const c = out.value as {
          facts: string[];
          hypotheses: string[];
          recommendations: string[];
          uncertainty: number;
        };
        published = await rest.post(`/v1/swarm/questions/${encodeURIComponent(qid)}/inputs`, {
          draft: {
            type: 'swarm/question-summary',
            'author/role': b.author_role,
            status: b.status,
            'content/facts': c.facts,
            'content/hypotheses': c.hypotheses,
            'content/recommendations': c.recommendations,
            'content/uncertainty': c.uncertainty,
          },
        });
      } else {
        const label = b.speaker ?? b.driver.model ?? b.driver.provider;
        published = await answerIn(
          { question_id: qid, text: (out.value as { text: string }).text, speaker: label, models: [label] },
          rest,
        );
      }
      remember({ ...base, ok: true, error: null, published: published.body });
      fail(published);
      return { role: b.role, published: published.body, call: out.record };
    },
  );
}
