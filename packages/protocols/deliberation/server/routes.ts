import { entryPayload, type StoredEntry, truncateCodePoints, type Viewer } from '@db8/core';
import type { ModuleContext, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, requireAdmin, requireAuth, viewerIn } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type DeliberationView, OPERATOR, phaseSummary } from '../rules/index.ts';
import { deliberationLifecycleRoutes } from './lifecycle-routes.ts';
import {
  CreateDebateBodySchema,
  debateToRoom,
  IdParams,
  iso,
  ListQuery,
  ReasonBody,
  RejectBody,
  statusOf,
} from './rest-shapes.ts';
import { assertSandboxFor, sandboxOptionsFromEnv } from './sandbox.ts';
import { withGivenLessons } from './storage/index.ts';
import type { DeliberationWorker } from './worker.ts';

const tags = ['deliberation'];

/**
 * REST shaped like upstream's debate API (HelixAgent `internal/handlers/debate_handler.go`), mapped
 * onto rooms: a debate is a `deliberation` room (its id is the room id), its participants are seats
 * (model-driven through the server's drivers, or `remote` for people and agents who join), gates are
 * the operator's approve/reject actions, the audit trail is the room's signed log. Zod at the edge:
 * a bad body, query or param is a 400 VALIDATION_FAILED.
 */

export function deliberationRestRoutes(
  root: FastifyInstance,
  ctx: ModuleContext,
  worker?: DeliberationWorker,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const rt = ctx.runtime;

  async function room(id: string) {
    const r = await rt.getRoom(id);
    if (r.protocol !== 'deliberation')
      throw new ApiError(404, 'NOT_A_DELIBERATION', `room ${id} is not a deliberation`);
    return r;
  }
  async function viewFor(req: FastifyRequest, id: string, viewer?: Viewer) {
    const r = await room(id);
    const v = viewer ?? (await viewerIn(ctx.app, req.auth, id));
    const st = await rt.stateFor(id, v);
    return { room: r, view: st.view as DeliberationView };
  }
  /** The seat a request decides gates as: a reviewer seat it holds, or (an admin) the first reviewer. */
  async function reviewerSeat(req: FastifyRequest, id: string): Promise<string> {
    const auth = requireAuth(req);
    const { view } = await viewFor(req, id, { kind: 'admin' });
    const reviewers = view.config.gates.reviewers;
    if (auth.role === 'admin') return reviewers[0] ?? OPERATOR;
    const held = auth.seat && auth.room === id ? auth.seat : await rt.seatOf(id, auth.principal);
    if (held && reviewers.includes(held)) return held;
    throw new ApiError(403, 'NOT_A_REVIEWER', `only ${reviewers.join(', ')} (or an admin) may decide gates`);
  }

  app.post(
    '/v1/debates',
    {
      schema: {
        tags,
        summary: 'Create a deliberation (upstream-shaped) as a room (admin)',
        body: CreateDebateBodySchema,
      },
    },
    async (req, reply) => {
      const admin = requireAdmin(req);
      const body = req.body;
      const names = body.participants.map((p) => p.name).filter(Boolean);
      if (new Set(names).size !== names.length)
        throw new ApiError(400, 'BAD_PARTICIPANTS', 'participant names must be unique');
      const sessionId = `delib_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      let mapped: ReturnType<typeof debateToRoom>;
      try {
        mapped = debateToRoom(body, ctx.env, sessionId);
      } catch (err) {
        throw new ApiError(400, 'BAD_PARTICIPANTS', (err as Error).message);
      }
      assertSandboxFor(mapped.config, sandboxOptionsFromEnv(ctx.env));
      // The lessons the seats are given: the bank's best matches for the task (lessons-given.ts).
      mapped.config = await withGivenLessons(ctx.app.store.db, mapped.config);
      const driven = Object.keys(mapped.drivers).length > 0;
      const hosts = ctx.app.drivers;
      if (driven) {
        if (!hosts) throw new ApiError(400, 'BAD_DRIVERS', 'this server runs no model drivers');
        hosts.check('deliberation', mapped.drivers);
      }
      const created = (await rt.createRoom({
        protocol: 'deliberation',
        config: mapped.config,
        title: body.title ?? truncateCodePoints(body.topic, 200),
        createdBy: admin.principal,
      })) as { id: string; createdAt: number };
      if (driven && hosts) await hosts.attach(created.id, mapped.drivers, undefined);
      const { view } = await viewFor(req, created.id, { kind: 'admin' });
      return reply.code(201).send({
        id: created.id,
        room_id: created.id,
        status: view.status,
        topic: body.topic,
        topology_type: view.config.topology,
        coordination_protocol: view.config.coordination,
        voting_method: view.config.voting,
        participants: view.config.seats.map((s) => ({
          name: s.id,
          role: s.role,
          provider: s.provider,
          model: s.model,
          score: s.score,
          driven: s.id in mapped.drivers,
        })),
        created_at: iso(created.createdAt),
      });
    },
  );

  app.get(
    '/v1/debates',
    {
      schema: {
        tags,
        summary: 'List deliberations (rooms of protocol deliberation)',
        querystring: ListQuery,
      },
    },
    async (req) => {
      const rooms = (await rt.listRooms({
        protocol: 'deliberation',
        limit: req.query.limit,
        ...(req.query.status ? { status: req.query.status } : {}),
      })) as { id: string; title: string | null; status: string; createdAt: number }[];
      return {
        debates: rooms.map((r) => ({
          id: r.id,
          topic: r.title,
          room_status: r.status,
          created_at: iso(r.createdAt),
        })),
        total: rooms.length,
      };
    },
  );

  app.get(
    '/v1/debates/:id',
    { schema: { tags, summary: 'A deliberation as the caller may see it', params: IdParams } },
    async (req) => {
      const { room: r, view } = await viewFor(req, req.params.id);
      return {
        id: r.id,
        topic: view.config.topic,
        ...statusOf(view),
        topology_type: view.config.topology,
        coordination_protocol: view.config.coordination,
        layout: view.layout,
        plan: view.plan,
        rounds: Array.from({ length: view.round }, (_, i) => i + 1).map((round) => ({
          number: round,
          phases: view.phases.filter((p) => p.round === round),
          responses: view.turns.filter((t) => t.round === round),
          outcome: view.rounds.find((o) => o.round === round) ?? null,
        })),
        outcome: view.outcome,
        completed_at: null as string | null,
      };
    },
  );

  app.get(
    '/v1/debates/:id/status',
    { schema: { tags, summary: 'Where a deliberation is', params: IdParams } },
    async (req) => {
      const { view } = await viewFor(req, req.params.id);
      return { id: req.params.id, ...statusOf(view) };
    },
  );

  app.get(
    '/v1/debates/:id/results',
    { schema: { tags, summary: "A deliberation's outcome, rounds and code versions", params: IdParams } },
    async (req) => {
      const { view } = await viewFor(req, req.params.id);
      const o = view.outcome;
      const seats = view.config.seats.length;
      const agreed = o
        ? Object.values(
            view.turns.filter(
              (t) => t.round === o.round && t.action.type === 'converge' && t.action.ranking[0] === o.winner,
            ),
          ).length
        : 0;
      return {
        id: req.params.id,
        status: view.status,
        consensus: o?.summary ?? null,
        confidence: o?.confidence ?? null,
        reached_consensus: o?.reachedConsensus ?? false,
        winner: o?.winner ?? null,
        voting_method: view.config.voting,
        participants_agreed: agreed,
        participants_total: seats,
        outcome: o,
        rounds: view.rounds.map((r) => ({
          round: r.round,
          consensus: r.confidence,
          winner: r.winner,
          reached: r.reachedConsensus,
        })),
        phases: view.phases.map(phaseSummary),
        code_versions: view.codeVersions.map((v) => ({
          version: v.version,
          seat: v.seat,
          round: v.round,
          phase: v.phase,
          language: v.language,
          test_pass_rate: v.testPassRate,
          quality_score: v.qualityScore,
          metrics: v.metrics,
          measured_at: iso(v.measuredAt),
          diff: v.diff,
        })),
        failure: view.failure,
        cancellation: view.cancellation,
      };
    },
  );

  const decide =
    (decision: 'approve' | 'reject') =>
    async (req: FastifyRequest<{ Params: { id: string }; Body: { reason: string } }>) => {
      const id = req.params.id;
      const seat = await reviewerSeat(req, id);
      const { view } = await viewFor(req, id, { kind: 'admin' });
      const gate = view.gates.at(-1);
      if (view.status !== 'paused' || !gate || gate.decision !== null)
        throw new ApiError(409, 'NOT_PAUSED', `the deliberation is ${view.status}, not waiting at a gate`);
      const ack = await rt.act(id, {
        seat,
        action: { type: decision, reason: req.body.reason || `${decision}d via REST` },
        clientNonce: `gate:${gate.round}:${gate.phase}:${gate.openedAt}`,
      });
      const after = (await viewFor(req, id, { kind: 'admin' })).view;
      const g = after.gates.at(-1)!;
      return {
        id,
        gate: g.phase,
        round: g.round,
        approved: g.decision === 'approve',
        decided_by: g.by,
        reason: g.reason,
        [decision === 'approve' ? 'approved_at' : 'rejected_at']: iso(g.decidedAt),
        status: after.status,
        seq: ack.seq,
      };
    };
  app.post(
    '/v1/debates/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve the open gate (a reviewer seat or an admin)',
        params: IdParams,
        body: ReasonBody,
      },
    },
    decide('approve'),
  );
  app.post(
    '/v1/debates/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject the open gate: the deliberation is cancelled',
        params: IdParams,
        body: RejectBody,
      },
    },
    decide('reject'),
  );

  app.get(
    '/v1/debates/:id/gates',
    { schema: { tags, summary: "A deliberation's approval gates", params: IdParams } },
    async (req) => {
      const { view } = await viewFor(req, req.params.id);
      return {
        debate_id: req.params.id,
        configured: view.config.gates.phases,
        reviewers: view.config.gates.reviewers,
        gates: view.gates.map((g) => ({
          round: g.round,
          phase: g.phase,
          status: g.decision === null ? 'pending' : g.decision === 'approve' ? 'approved' : 'rejected',
          decided_by: g.by,
          reason: g.reason,
          opened_at: iso(g.openedAt),
          deadline: iso(g.deadline),
          decided_at: iso(g.decidedAt),
        })),
      };
    },
  );

  app.get(
    '/v1/debates/:id/audit',
    { schema: { tags, summary: "A deliberation's audit trail: its signed log", params: IdParams } },
    async (req) => {
      await room(req.params.id);
      const viewer = await viewerIn(ctx.app, req.auth, req.params.id);
      const events: Record<string, unknown>[] = [];
      for (let from = 0; ; ) {
        const page = await rt.entries(req.params.id, viewer, from, 1000);
        for (const e of page) {
          // A sealed turn the viewer may read carries its payload in `sealed` (entryPayload).
          const payload = entryPayload(e as StoredEntry) as { type?: unknown } | undefined;
          events.push({
            seq: e.seq,
            type: e.kind === 'action' && typeof payload?.type === 'string' ? payload.type : e.kind,
            actor: e.actor,
            timestamp: iso(e.ts),
            hash: (e as { hash?: string }).hash ?? null,
          });
        }
        if (page.length < 1000) break;
        from = page.at(-1)!.seq + 1;
      }
      return { debate_id: req.params.id, events, total_events: events.length };
    },
  );

  deliberationLifecycleRoutes(root, ctx, { viewFor, worker });
}
