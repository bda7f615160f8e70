import {
  ApiError,
  isSupportedVersion,
  type ModuleContext,
  requireAdmin,
  requireAuth,
  type ZodTypeProvider,
} from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  type AgentResults,
  CreateTableBodySchema,
  GameStatePayloadSchema,
  gameStateOf,
  JoinTableBodySchema,
  JoinTableResponseSchema,
  KickBodySchema,
  POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
  POKER_PROTOCOL_VERSION,
  type TablePlayer,
  TablePlayerSchema,
  TableSummarySchema,
  type TableView,
  TopUpBodySchema,
} from '../rules/index.ts';
import { loadTableExport, toJsonl, toPhhs } from './export.ts';
import type { Presence } from './presence.ts';
import { pokerProtocolJson } from './protocol-json.ts';
import { type PokerTables, seatNumber } from './service.ts';
import { pokerSkillDoc } from './skill.ts';
import { pokerOutdated } from './wire.ts';

const Params = z.object({ id: z.string().min(1).max(128) });
const TablesResponse = z.object({ tables: z.array(TableSummarySchema) });
const TableResponse = z.object({
  table: TableSummarySchema,
  state: GameStatePayloadSchema,
  players: z.array(TablePlayerSchema),
});
const EventsQuery = z.object({
  fromSeq: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
const ListQuery = z.object({ status: z.enum(['waiting', 'running', 'ended']).optional() });
const ExportQuery = z.object({ format: z.enum(['jsonl', 'phh']).default('jsonl') });

export interface PokerRouteDeps {
  ctx: ModuleContext;
  tables: PokerTables;
  presence: Presence;
}

/** seed 002 §7: the table control plane (REST). Gameplay is on the WebSocket (codec: ./wire.ts). */
export function pokerRoutes(root: FastifyInstance, { ctx, tables, presence }: PokerRouteDeps): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['poker'];
  const base = ctx.app.config.publicUrl;
  const skillDocUrl = `${base}/v1/tables/skill.md`;
  const wsUrl = `${base.replace(/^http/, 'ws')}/v1/poker/ws`;
  let protocolJson: Record<string, unknown> | null = null;

  const outdated = (v: string) => pokerOutdated(v, skillDocUrl);

  /** Each held player seat with its agent's registered name (names, never ids, on the felt). */
  const playersOf = async (roomId: string): Promise<TablePlayer[]> => {
    const seats = (await ctx.app.store.rooms.seats(roomId)).filter(
      (s) => seatNumber(s.seat) !== null && s.principalId !== null,
    );
    return Promise.all(
      seats.map(async (s) => ({
        seat_id: seatNumber(s.seat)!,
        name: (await ctx.app.store.principals.get(s.principalId!))?.displayName ?? null,
      })),
    );
  };

  /**
   * An ended table's per-seat results never change, so the admin agents page (polled every 3 s)
   * folds each ended table once, not once per poll. Bounded: the newest ENDED_KEPT tables.
   */
  const ended = new Map<string, Map<number, { hands: number; net: number }>>();
  const ENDED_KEPT = 1024;
  const endedResults = async (roomId: string) => {
    const known = ended.get(roomId);
    if (known) return known;
    const view = await tables.view(roomId, { kind: 'admin' });
    if (view.status !== 'stopped') return null;
    const bySeat = new Map(
      view.seats.flatMap((seat, i) =>
        seat ? [[i, { hands: seat.handsPlayed, net: seat.stack - seat.bought }]] : [],
      ),
    );
    ended.set(roomId, bySeat);
    if (ended.size > ENDED_KEPT) ended.delete(ended.keys().next().value!);
    return bySeat;
  };

  /** An agent's hands and chips won over its seats at tables that have ended (stack − bought). */
  const resultsOf = async (seats: ReadonlyArray<{ roomId: string; seat: string }>): Promise<AgentResults> => {
    const out = { tables: 0, hands: 0, net: 0 };
    for (const s of seats) {
      const seat = (await endedResults(s.roomId))?.get(seatNumber(s.seat)!);
      if (!seat) continue;
      out.tables++;
      out.hands += seat.hands;
      out.net += seat.net;
    }
    return out;
  };

  const create = {
    schema: {
      tags,
      summary: 'Create a poker table (admin)',
      body: CreateTableBodySchema,
      response: { 201: TableSummarySchema },
    },
  };
  for (const url of ['/v1/tables', '/v1/admin/tables']) {
    app.post(url, create, async (req, reply) => {
      const admin = requireAdmin(req);
      return reply.code(201).send(await tables.create(req.body, admin.principal));
    });
  }

  app.get(
    '/v1/tables',
    {
      schema: {
        tags,
        summary: 'Poker tables, newest first',
        querystring: ListQuery,
        response: { 200: TablesResponse },
      },
    },
    async (req) => {
      const all = await tables.list();
      return { tables: req.query.status ? all.filter((t) => t.status === req.query.status) : all };
    },
  );

  app.get('/v1/tables/skill.md', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(pokerSkillDoc(base)),
  );
  app.get('/v1/tables/protocol.json', { schema: { hide: true } }, async () => {
    protocolJson ??= pokerProtocolJson();
    return protocolJson;
  });

  app.get(
    '/v1/tables/:id',
    {
      schema: {
        tags,
        summary: 'One table and its public state',
        params: Params,
        response: { 200: TableResponse },
      },
    },
    async (req) => {
      const room = await tables.table(req.params.id);
      const s = await ctx.runtime.stateFor(room.id, { kind: 'observer' });
      return {
        table: await tables.summary(room),
        state: gameStateOf(s.view as TableView, undefined, s.deadlineUnix),
        // Who sits where is the admin's while the table runs (the platform's anonymous seats, as
        // join entries are); everyone sees it once the table has ended (its close reveals it).
        players: req.auth?.role === 'admin' || room.status === 'closed' ? await playersOf(room.id) : [],
      };
    },
  );

  app.post(
    '/v1/tables/:id/join',
    {
      schema: {
        tags,
        summary: 'Take a seat (Authorization: Bearer <api_key>); returns a session token for the WebSocket',
        params: Params,
        body: JoinTableBodySchema,
        response: { 200: JoinTableResponseSchema },
      },
    },
    async (req) => {
      const v = req.body.client_protocol_version;
      if (!isSupportedVersion(v)) throw outdated(v);
      const auth = requireAuth(req);
      if (auth.role !== 'agent')
        throw new ApiError(403, 'FORBIDDEN', 'agents join tables with their API key');
      if (auth.room !== null && auth.room !== req.params.id)
        throw new ApiError(403, 'FORBIDDEN', 'this token is scoped to another table');
      const seat = await tables.join(req.params.id, auth.principal, req.body.seat_id);
      presence.touch(auth.principal, req.params.id, seat);
      const t = await ctx.app.tokens.issueSession(
        { sub: auth.principal, role: 'agent', room: req.params.id, seat: `seat_${seat}` },
        ctx.app.config.sessionTtlSec,
      );
      return {
        table_id: req.params.id,
        seat_id: seat,
        agent_id: auth.principal,
        session_token: t.token,
        expires_at: t.expiresAt.toISOString(),
        ws_url: wsUrl,
        protocol_version: POKER_PROTOCOL_VERSION,
        min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
        skill_doc_url: skillDocUrl,
      };
    },
  );

  app.post(
    '/v1/tables/:id/leave',
    {
      schema: {
        tags,
        summary:
          "Leave your seat: out from now on, a hand you are in is folded at your turn (agent's API key)",
        params: Params,
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      if (auth.room !== null && auth.room !== req.params.id)
        throw new ApiError(403, 'FORBIDDEN', 'this token is scoped to another table');
      const room = await tables.table(req.params.id);
      const held = (await ctx.app.store.rooms.seatsOf(auth.principal)).find(
        (s) => s.roomId === room.id && seatNumber(s.seat) !== null,
      );
      if (!held) throw new ApiError(404, 'NOT_SEATED', 'you hold no seat at this table');
      const ack = await ctx.runtime.act(room.id, {
        seat: held.seat,
        action: { kind: 'leave' },
        principal: auth.principal,
      });
      return { seq: ack.seq, seat_id: seatNumber(held.seat) };
    },
  );

  // ── admin ────────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/v1/admin/tables',
    {
      schema: {
        tags,
        summary: 'Every table, ended ones included (admin)',
        response: { 200: TablesResponse },
      },
    },
    async (req) => {
      requireAdmin(req);
      return { tables: await tables.list() };
    },
  );

  app.post(
    '/v1/admin/tables/:id/stop',
    { schema: { tags, summary: 'Stop a table; a hand in progress is called off (admin)', params: Params } },
    async (req) => {
      requireAdmin(req);
      const room = await tables.table(req.params.id);
      if (room.status === 'open') await tables.house(room.id, { kind: 'stop' });
      return { table: await tables.summary(await tables.table(room.id)) };
    },
  );

  app.post(
    '/v1/admin/tables/:id/top-up',
    {
      schema: {
        tags,
        summary: 'Give a seat play-money chips (admin)',
        params: Params,
        body: TopUpBodySchema,
      },
    },
    async (req) => {
      requireAdmin(req);
      const ack = await tables.house(req.params.id, {
        kind: 'topUp',
        seat: req.body.seat_id,
        amount: req.body.amount,
      });
      return { seq: ack.seq };
    },
  );

  app.post(
    '/v1/admin/tables/:id/kick',
    {
      schema: {
        tags,
        summary: 'Remove a seat from play: it is folded at its turn and may not sit in again (admin)',
        params: Params,
        body: KickBodySchema,
      },
    },
    async (req) => {
      requireAdmin(req);
      const ack = await tables.house(req.params.id, { kind: 'kick', seat: req.body.seat_id });
      return { seq: ack.seq };
    },
  );

  app.get(
    '/v1/admin/agents',
    { schema: { tags, summary: 'Agents: connected, last seen, seats (admin)' } },
    async (req) => {
      requireAdmin(req);
      const agents = await ctx.app.store.principals.list('agent');
      return {
        agents: await Promise.all(
          agents.map(async (a) => {
            const p = presence.of(a.id);
            const seats = (await ctx.app.store.rooms.seatsOf(a.id)).filter(
              (s) => seatNumber(s.seat) !== null,
            );
            const open = await Promise.all(
              seats.map(async (s) => ((await tables.isTable(s.roomId)) ? s : null)),
            );
            const held = open.flatMap((s) => (s ? [s] : []));
            return {
              agent_id: a.id,
              name: a.displayName,
              connected: (p?.connections ?? 0) > 0,
              last_seen_at: p ? new Date(p.lastSeen).toISOString() : null,
              seats: held.map((s) => ({ table_id: s.roomId, seat_id: seatNumber(s.seat) })),
              results: await resultsOf(held),
            };
          }),
        ),
      };
    },
  );

  app.get(
    '/v1/admin/tables/:id/events',
    {
      schema: {
        tags,
        summary: "A table's log entries, unredacted (admin)",
        params: Params,
        querystring: EventsQuery,
      },
    },
    async (req) => {
      requireAdmin(req);
      await tables.table(req.params.id);
      const events = await ctx.runtime.entries(
        req.params.id,
        { kind: 'admin' },
        req.query.fromSeq,
        req.query.limit,
      );
      const last = events.at(-1);
      return { events, next_seq: last ? last.seq + 1 : req.query.fromSeq };
    },
  );

  app.get(
    '/v1/admin/tables/:id/export',
    {
      schema: {
        tags,
        summary: 'Download a table: JSONL (log + hands) or PHH (admin)',
        params: Params,
        querystring: ExportQuery,
      },
    },
    async (req, reply) => {
      requireAdmin(req);
      const room = await tables.table(req.params.id);
      const x = await loadTableExport({ runtime: ctx.runtime, store: ctx.app.store }, tables, room.id);
      if (req.query.format === 'phh') {
        return reply
          .type('text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="${room.id}.phhs"`)
          .send(toPhhs(x.config, x.replay.hands));
      }
      return reply
        .type('application/x-ndjson')
        .header('content-disposition', `attachment; filename="${room.id}.jsonl"`)
        .send(toJsonl(room.id, room.title, x));
    },
  );
}
