import { parseRfc3339 } from '@db8/core';
import type { ModuleRuntime as Runtime, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, requireAuth } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  admitQuestion,
  admitRoomInput,
  IdSchema,
  nodeOf,
  QuestionListSchema,
  type QuestionView,
  questionConfig,
  type Refusal,
  type ResponderRecord,
  type RoomInput,
  toFlat,
} from '../rules/index.ts';
import { linkAuthor } from './authors.ts';
import type { Published, SwarmTransport } from './binding.ts';
import {
  AskDraftSchema,
  InputDraftSchema,
  type NodeIdentity,
  nodeEnvelope,
  nodeInput,
  participantOf,
  principalKey,
  relayedBy,
} from './node-sign.ts';
import type { SwarmOptions } from './options.ts';
import { recordOf } from './records.ts';
import { eventIdOf, type FoldOutcome, kindOf, scopeRefusal } from './replica.ts';
import { roomIdOf, SCOPES } from './subjects.ts';

/**
 * REST for swarm questions (docs/swarm.md "REST"). Writes go through the stream: a request is
 * checked by the same gate every node runs (a refusal is a 4xx and nothing is published), then
 * published, and the answer says what this node's fold made of it. Reads are this node's copies.
 */

const tags = ['swarm'];
const Obj = z.record(z.string(), z.unknown());
const AskBodySchema = z.union([
  z.object({ envelope: Obj }).strict().describe('an envelope the client signed'),
  z.object({ ask: AskDraftSchema }).strict().describe('a question the node signs with its node key'),
]);
const InputBodySchema = z.union([
  z.object({ input: Obj }).strict().describe('a room input, summary or close the client signed'),
  z.object({ draft: InputDraftSchema }).strict().describe('an input the node completes and signs'),
]);
const QuestionParams = z.object({ qid: IdSchema });
const ListQuery = z
  .object({
    scope: z.enum(SCOPES).optional(),
    tag: z.string().min(1).max(200).optional(),
    status: z.enum(['active', 'open', 'closed', 'all']).default('active'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

const GATE_STATUS: Record<string, number> = {
  OVERSIZED: 413,
  OUT_OF_SCOPE: 403,
  SCHEMA_INVALID: 400,
  CHANNEL_MISMATCH: 400,
  REPLAYED: 409,
};
const gateError = (r: Refusal) => new ApiError(GATE_STATUS[r.code] ?? 422, r.code, r.message, r.details);

function answer(p: Published) {
  const o = p.outcome;
  if (o?.status === 'ignored') {
    // Published, but this node's fold could not use it: never a success.
    throw new ApiError(500, 'FOLD_FAILED', `this node could not fold the message: ${o.reason}`, {
      stream_seq: p.streamSeq,
    });
  }
  if (o?.status === 'refused') {
    const details = o.details && typeof o.details === 'object' ? o.details : {};
    throw new ApiError(o.stage === 'room' ? 409 : 422, o.code, o.message, {
      stream_seq: p.streamSeq,
      ...details,
    });
  }
  return {
    stream_seq: p.streamSeq,
    duplicate: p.duplicate,
    status: o === null ? 'pending' : o.status,
    ...(o && 'seq' in o ? { room_seq: o.seq } : {}),
    ...(o && 'roomId' in o ? { room_id: o.roomId } : {}),
  };
}

export interface SwarmRoutesDeps {
  runtime: Runtime;
  binding: SwarmTransport | null;
  opts: SwarmOptions;
  node: NodeIdentity;
}

export function swarmRoutes(root: FastifyInstance, deps: SwarmRoutesDeps): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { runtime, opts, node } = deps;
  const online = (): SwarmTransport => {
    if (!deps.binding) throw new ApiError(503, 'SWARM_OFFLINE', 'this node has no swarm transport (no NATS)');
    return deps.binding;
  };
  const view = async (qid: string) => {
    const roomId = roomIdOf(qid);
    const room = await runtime.store.rooms.get(roomId);
    if (room?.protocol !== 'question')
      throw new ApiError(404, 'QUESTION_NOT_FOUND', `no question ${qid} here`);
    const st = await runtime.stateFor(roomId, { kind: 'observer' });
    return { roomId, seq: st.seq, view: st.view as QuestionView };
  };

  app.get(
    '/v1/swarm/node',
    {
      schema: {
        tags,
        summary:
          "This node's swarm identity, scopes and recent refusals; participant_id is the caller's own key here",
      },
    },
    async (req) => ({
      node_id: node.nodeId,
      // The key this node signs the caller's drafts with (the node's own without a login).
      participant_id: participantOf(
        req.auth ? principalKey(node, req.auth.principal).publicKey : node.publicKey,
      ),
      node_participant_id: participantOf(node.publicKey),
      federation_id: node.federationId,
      roster_version: opts.settings.roster?.['roster/version'] ?? null,
      online: deps.binding !== null,
      // In a cluster (several processes on one store) exactly one process folds for the node.
      folding: deps.binding?.folding ?? false,
      stream: opts.stream,
      subject_prefix: opts.prefix,
      scopes: opts.scopes,
      max_ttl_sec: opts.maxTtlSec,
      min_ttl_sec: opts.minTtlSec,
      counts: deps.binding?.counts ?? null,
      refusals: deps.binding?.refusals.slice(-50) ?? [],
    }),
  );

  app.post(
    '/v1/swarm/questions',
    { schema: { tags, summary: 'Ask the swarm', body: AskBodySchema } },
    async (req, reply) => {
      const auth = requireAuth(req);
      const binding = online();
      const now = Date.now();
      const envelope =
        'ask' in req.body
          ? nodeEnvelope(req.body.ask, node, principalKey(node, auth.principal), now)
          : req.body.envelope;
      const flat = toFlat(envelope) as Record<string, unknown>;
      const qid = typeof flat['question/id'] === 'string' ? flat['question/id'] : null;
      const exists = qid !== null && (await runtime.store.rooms.get(roomIdOf(qid))) !== null;
      const admitted = admitQuestion(envelope, {
        now,
        trust: opts.settings.trust,
        maxTtlSec: opts.maxTtlSec,
        minTtlSec: opts.minTtlSec,
        seen: () => exists,
      });
      if (!admitted.ok) throw gateError(admitted.error);
      const env = admitted.value.envelope;
      // What the fold checks next (the room's config): refused here, it is never published.
      const config = questionConfig(env, opts.settings);
      if (!config.ok) throw gateError(config.error);
      // What this node's own fold would refuse as outside its scope is not published either.
      const scoped = scopeRefusal(env, opts);
      if (scoped) throw gateError(scoped);
      const p = await binding.publish(
        binding.subjects.publish(env['delivery/scope']),
        env,
        env['question/id'],
      );
      if (p.duplicate)
        throw new ApiError(409, 'REPLAYED', `question ${env['question/id']} was already published`);
      const published = answer(p);
      // Signed here for the caller: its profile may count the question once the room closes.
      if ('ask' in req.body)
        await linkAuthor(runtime, node, {
          roomId: roomIdOf(env['question/id']),
          principal: auth.principal,
          role: 'asker',
        }).catch((err) => req.log.warn({ err }, 'swarm: question not linked to its asker'));
      return reply.code(201).send({ question_id: env['question/id'], ...published });
    },
  );

  app.get(
    '/v1/swarm/questions',
    {
      schema: {
        tags,
        summary: 'Questions on this node',
        querystring: ListQuery,
        response: { 200: QuestionListSchema },
      },
    },
    async (req) => {
      const q = req.query;
      const rooms = await runtime.listRooms({
        protocol: 'question',
        ...(q.status === 'open' || q.status === 'active' ? { status: 'open' as const } : {}),
        ...(q.status === 'closed' ? { status: 'closed' as const } : {}),
        limit: 500,
      });
      const now = Date.now();
      const out = [];
      for (const r of rooms) {
        const env = (r.config as { envelope: Record<string, unknown> }).envelope;
        const facts = {
          scope: String(env['delivery/scope']),
          tags: (env['question/tags'] as string[]) ?? [],
        };
        // A stored config was checked when its room opened; a time that does not read is skipped.
        const created = parseRfc3339(env['created-at']);
        if (created === null) continue;
        const deadline = created + Number(env['ttl-sec']) * 1000;
        if (q.scope && facts.scope !== q.scope) continue;
        if (q.tag && !facts.tags.includes(q.tag)) continue;
        if (q.status === 'active' && deadline <= now) continue;
        // The count the list shows; the room's state is the runtime's cached copy.
        const st = await runtime.stateFor(r.id, { kind: 'observer' });
        const answers = (st.view as QuestionView).messages.filter((m) => m.kind === 'answer').length;
        out.push({
          question_id: String(env['question/id']),
          room_id: r.id,
          text: String(env['question/text']),
          tags: facts.tags,
          scope: facts.scope,
          asker_node: String(env['sender/node-id']),
          created_at: String(env['created-at']),
          deadline_unix: deadline,
          status: r.status,
          seq: r.seq,
          answers,
        });
        if (out.length >= q.limit) break;
      }
      return { questions: out };
    },
  );

  app.get(
    '/v1/swarm/questions/:qid',
    { schema: { tags, summary: "This node's copy of an answer room", params: QuestionParams } },
    async (req) => {
      const v = await view(req.params.qid);
      return { question_id: req.params.qid, room_id: v.roomId, seq: v.seq, room: v.view };
    },
  );

  app.get(
    '/v1/swarm/questions/:qid/metadata',
    { schema: { tags, summary: 'The room as answer-room-metadata.v1', params: QuestionParams } },
    async (req) => (await view(req.params.qid)).view.metadata,
  );

  app.post(
    '/v1/swarm/questions/:qid/inputs',
    {
      schema: {
        tags,
        summary: 'Join, answer, summarise, close… (a signed room input)',
        params: QuestionParams,
        body: InputBodySchema,
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const binding = online();
      const { roomId, view: room } = await view(req.params.qid);
      const now = Date.now();
      const signer = principalKey(node, auth.principal);
      // A join this node relays carries the responder's record as this node attests it (rules 3).
      const joiner = joinerOf(req.body, signer.publicKey);
      const record = joiner ? await recordOf(runtime, joiner) : undefined;
      const raw =
        'draft' in req.body
          ? nodeInput(req.body.draft, room.question.id, node, signer, now, record)
          : req.body.input;
      const admitted = admitRoomInput(raw, {
        now,
        trust: opts.settings.trust,
        maxBytes: opts.settings.maxInputBytes,
        maxTtlSec: opts.maxTtlSec,
        minTtlSec: opts.minTtlSec,
      });
      if (!admitted.ok) throw gateError(admitted.error);
      // The gateway countersigns what it relays: a client-signed input naming this node gets this
      // node's signature; one naming another node must carry that node's (the room checks).
      const input: RoomInput =
        nodeOf(admitted.value) === node.nodeId && !('gateway/signature' in admitted.value)
          ? (relayedBy(node, withRecord(admitted.value, record)) as RoomInput)
          : admitted.value;
      if (roomIdOf(input['question/id']) !== roomId) {
        throw new ApiError(
          400,
          'WRONG_ROOM',
          `the input names ${input['question/id']}, not ${room.question.id}`,
        );
      }
      const s = binding.subjects;
      const scope = room.question.scope;
      const kind = kindOf(input);
      const subject =
        kind === 'summary'
          ? s.summary(scope)
          : kind === 'close'
            ? s.close(scope)
            : s.room(room.question.id, scope);
      const id = eventIdOf(input);
      const p = await binding.publish(subject, input, id);
      if (p.duplicate) throw new ApiError(409, 'REPLAYED', `input ${id} was already published`);
      const published = answer(p);
      // A draft is signed here with the caller's key: its answers count on its profile (authors.ts).
      if ('draft' in req.body)
        await linkAuthor(runtime, node, {
          roomId,
          principal: auth.principal,
          role: participantOf(signer.publicKey) === room.question.asker ? 'asker' : 'participant',
        }).catch((err) => req.log.warn({ err }, 'swarm: input not linked to its author'));
      return published;
    },
  );
}

/** The participant a join in `body` is for (the caller's key for a draft), or null for other inputs. */
function joinerOf(body: unknown, callerKey: Uint8Array): string | null {
  const b = body as { draft?: { type?: unknown }; input?: Record<string, unknown> };
  if (b.draft?.type === 'swarm/room-join') return participantOf(callerKey);
  const input = b.input;
  if (input?.type === 'swarm/room-join' && typeof input['sender/participant-id'] === 'string')
    return input['sender/participant-id'];
  return null;
}

/** A client-signed join gets this node's record for it (whatever record the client wrote). */
function withRecord(input: RoomInput, record: ResponderRecord | undefined): RoomInput {
  if (input.type !== 'swarm/room-join' || !record) return input;
  return { ...input, 'gateway/record': record };
}

export type { FoldOutcome };
