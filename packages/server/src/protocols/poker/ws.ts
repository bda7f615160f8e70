import type { Viewer } from '@db8/core';
import {
  compactOf,
  gameStateOf,
  handCompleteOf,
  type LegalTableAction,
  POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
  POKER_PROTOCOL_VERSION,
  type PokerClientMessage,
  PokerClientMessageSchema,
  type TableView,
} from '@db8/protocols/poker';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../auth/types.ts';
import { ApiError, toHttpError, zodDetails } from '../../errors.ts';
import { actorFor, viewerIn } from '../../routes/access.ts';
import type { AppContext } from '../../routes/context.ts';
import { isSupportedVersion } from '../../schemas/common.ts';
import type { TableFeeds } from './feeds.ts';
import type { Presence } from './presence.ts';
import { type PokerTables, seatName, seatNumber } from './service.ts';

/** The slice of a `ws` WebSocket we use. */
interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(ev: 'message', fn: (data: Buffer | string, isBinary: boolean) => void): void;
  on(ev: 'close' | 'pong', fn: () => void): void;
  on(ev: 'error', fn: (err: Error) => void): void;
}

export interface PokerWsDeps {
  ctx: AppContext;
  tables: PokerTables;
  feeds: TableFeeds;
  presence: Presence;
  skillDocUrl: string;
}

const OPEN = 1;
const MAX_BUFFERED = 4 * 1024 * 1024;
const BUCKET = { burst: 100, perSec: 50 };

const QuerySchema = z
  .object({
    token: z.string().min(1).max(16_384).optional(),
    table_id: z.string().min(1).max(128).optional(),
    format: z.enum(['full', 'compact']).default('full'),
    client_protocol_version: z.string().max(32).optional(),
  })
  .loose();

/** `{type, table_id, seq, ts, id?, payload}` (seed 002 §8.1). */
function envelope(
  type: string,
  tableId: string | null,
  seq: number,
  payload: unknown,
  now: number,
  id?: string,
) {
  const msg: Record<string, unknown> = { type, table_id: tableId, seq, ts: new Date(now).toISOString() };
  if (id !== undefined) msg.id = id;
  msg.payload = payload;
  return JSON.stringify(msg);
}

/**
 * One agent's (or observer's) socket to one table, seed 002 §8: `welcome` on connect, a full
 * `game_state` whenever the table changes (your hole cards, and for the seat to act the legal
 * actions and `turn_token`), `hand_complete` as each hand ends, `action` → `ack` | `error`.
 */
class PokerConnection {
  private auth: AuthContext | null;
  private viewer: Viewer = { kind: 'observer' };
  private tableId: string | null = null;
  private seat: number | null = null;
  private format: 'full' | 'compact' = 'full';
  private off: (() => void) | null = null;
  private chain: Promise<void> = Promise.resolve();
  private lastSeq = -1;
  private lastHand: number | null = null;
  private pulling = false;
  private dirty = false;
  private closed = false;
  private alive = true;
  private tokens = BUCKET.burst;
  private lastRefill: number;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly log: FastifyBaseLogger;

  constructor(
    private readonly d: PokerWsDeps,
    private readonly ws: Socket,
    req: FastifyRequest,
  ) {
    this.log = req.log;
    this.auth = req.auth;
    this.lastRefill = d.ctx.clock();
    ws.on('message', (data, isBinary) => this.enqueue(() => this.dispatch(data, isBinary)));
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
    this.heartbeat = setInterval(() => {
      if (!this.alive) return this.ws.terminate();
      this.alive = false;
      try {
        this.ws.ping();
      } catch {
        // closing anyway
      }
    }, d.ctx.config.wsHeartbeatSec * 1000);
    this.heartbeat.unref();
    this.enqueue(() => this.open(req));
  }

  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch((err) => this.log.error({ err }, 'poker ws handler error'));
  }

  private now(): number {
    return this.d.ctx.clock();
  }

  private send(text: string): void {
    if (this.closed || this.ws.readyState !== OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.close(1013, 'slow consumer: reconnect');
      this.cleanup();
      return;
    }
    this.ws.send(text);
  }

  private sendError(err: unknown, id?: string): void {
    const { body, internal } = toHttpError(err);
    if (internal) this.log.error({ err }, 'poker ws error');
    this.send(envelope('error', this.tableId, Math.max(this.lastSeq, 0), body.error, this.now(), id));
  }

  private fatal(err: unknown, reason: string): void {
    this.sendError(err);
    this.ws.close(1008, reason);
    this.cleanup();
  }

  private welcome(id?: string): void {
    this.send(
      envelope(
        'welcome',
        this.tableId,
        Math.max(this.lastSeq, 0),
        {
          protocol_version: POKER_PROTOCOL_VERSION,
          min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
          skill_doc_url: this.d.skillDocUrl,
          seat_id: this.seat,
          agent_id: this.auth?.principal ?? null,
          action_timeout_ms: this.timeoutMs,
          format: this.format,
        },
        this.now(),
        id,
      ),
    );
  }

  private timeoutMs = 0;

  private outdated(v: string): ApiError {
    return new ApiError(426, 'OUTDATED_CLIENT', `client protocol ${v} is no longer supported`, {
      protocol_version: POKER_PROTOCOL_VERSION,
      min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
      skill_doc_url: this.d.skillDocUrl,
    });
  }

  private async open(req: FastifyRequest): Promise<void> {
    const q = QuerySchema.safeParse(req.query);
    if (!q.success) return this.fatal(new ApiError(400, 'BAD_REQUEST', 'bad query string'), 'bad query');
    this.format = q.data.format;
    const v = q.data.client_protocol_version;
    if (v !== undefined && !isSupportedVersion(v)) return this.fatal(this.outdated(v), 'OUTDATED_CLIENT');
    if (!this.auth && q.data.token) {
      try {
        this.auth = await this.d.ctx.authn.fromBearer(q.data.token);
      } catch (e) {
        return this.fatal(e, 'invalid token');
      }
    }
    const tableId = this.auth?.room ?? q.data.table_id;
    if (!tableId)
      return this.fatal(
        new ApiError(400, 'BAD_REQUEST', 'connect with a session token or ?table_id='),
        'no table',
      );
    if (!(await this.d.tables.isTable(tableId)))
      return this.fatal(new ApiError(404, 'TABLE_NOT_FOUND', `no poker table ${tableId}`), 'no table');
    this.tableId = tableId;
    this.viewer = await viewerIn(this.d.ctx, this.auth, tableId);
    this.seat = this.viewer.kind === 'seat' ? seatNumber(this.viewer.seat) : null;
    const view = await this.d.tables.view(tableId);
    this.timeoutMs = view.config.actionTimeoutMs;
    if (this.auth) this.d.presence.connect(this.auth.principal, tableId, this.seat);
    this.welcome();
    this.off = this.d.feeds.add(tableId, { notify: () => void this.pull() });
    await this.pull();
  }

  /** Sends the state if the table moved on: first any hands that ended, then `game_state`. */
  private async pull(): Promise<void> {
    if (this.pulling) {
      this.dirty = true;
      return;
    }
    this.pulling = true;
    try {
      do {
        this.dirty = false;
        if (this.closed || !this.tableId) return;
        const s = await this.d.ctx.runtime.stateFor(this.tableId, this.viewer);
        if (this.closed || s.seq <= this.lastSeq) continue;
        this.lastSeq = s.seq;
        const view = s.view as TableView;
        this.d.tables.noteState(this.tableId, s.seq, view, s.deadlineUnix);
        const newest = view.recent.at(-1)?.number ?? 0;
        if (this.lastHand !== null) {
          for (const h of view.recent) {
            if (h.number > this.lastHand)
              this.send(envelope('hand_complete', this.tableId, s.seq, handCompleteOf(h), this.now()));
          }
        }
        this.lastHand = newest;
        const legal = s.legal as { actions: readonly LegalTableAction[]; turnToken?: string } | undefined;
        const gs = gameStateOf(view, legal, s.deadlineUnix);
        this.send(
          envelope(
            'game_state',
            this.tableId,
            s.seq,
            this.format === 'compact' ? compactOf(gs) : gs,
            this.now(),
          ),
        );
      } while (this.dirty && !this.closed);
    } catch (err) {
      this.sendError(err);
    } finally {
      this.pulling = false;
    }
  }

  private allow(): boolean {
    const now = this.now();
    this.tokens = Math.min(BUCKET.burst, this.tokens + ((now - this.lastRefill) / 1000) * BUCKET.perSec);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private async dispatch(data: Buffer | string, isBinary: boolean): Promise<void> {
    if (this.closed) return;
    if (this.auth) this.d.presence.touch(this.auth.principal);
    if (!this.allow()) return this.sendError(new ApiError(429, 'RATE_LIMITED', 'too many messages'));
    if (isBinary) return this.sendError(new ApiError(400, 'BAD_REQUEST', 'binary frames are not supported'));
    let raw: unknown;
    try {
      raw = JSON.parse(String(data));
    } catch {
      return this.sendError(new ApiError(400, 'INVALID_JSON', 'message is not JSON'));
    }
    const id =
      raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
        ? (raw as { id: string }).id.slice(0, 128)
        : undefined;
    const parsed = PokerClientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const err = new ApiError(
        400,
        'VALIDATION_FAILED',
        'message does not match the schema',
        zodDetails(parsed.error),
      );
      return this.sendError(err, id);
    }
    try {
      await this.handle(parsed.data);
    } catch (err) {
      this.sendError(err, parsed.data.id);
    }
  }

  private async handle(msg: PokerClientMessage): Promise<void> {
    if (msg.type === 'ping') {
      this.send(envelope('pong', this.tableId, Math.max(this.lastSeq, 0), {}, this.now(), msg.id));
      return;
    }
    if (msg.type === 'hello') {
      const v = msg.payload.client_protocol_version;
      if (!isSupportedVersion(v)) {
        this.sendError(this.outdated(v), msg.id);
        this.ws.close(1008, 'OUTDATED_CLIENT');
        this.cleanup();
        return;
      }
      this.welcome(msg.id);
      return;
    }
    if (!this.tableId || this.seat === null)
      throw new ApiError(403, 'SEAT_NOT_HELD', 'observers cannot act: join the table for a seated token');
    const p = msg.payload;
    if (p.seat_id !== this.seat)
      throw new ApiError(403, 'SEAT_NOT_HELD', `this connection is seat ${this.seat}, not ${p.seat_id}`);
    const seat = seatName(this.seat);
    const principal = actorFor(this.auth, this.tableId, seat);
    const ack = await this.d.ctx.runtime.act(this.tableId, {
      seat,
      action: p.kind === 'raiseTo' ? { kind: 'raiseTo', amount: p.amount } : { kind: p.kind },
      turnToken: p.turn_token,
      ...(p.expected_seq !== undefined ? { expectedSeq: p.expected_seq } : {}),
      ...(principal !== undefined ? { principal } : {}),
    });
    this.send(
      envelope(
        'ack',
        this.tableId,
        ack.seq,
        { seq: ack.seq, duplicate: ack.duplicate, turn_token: p.turn_token },
        this.now(),
        msg.id,
      ),
    );
  }

  cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.off?.();
    this.off = null;
    if (this.auth && this.tableId) this.d.presence.disconnect(this.auth.principal);
  }
}

export function pokerWsRoutes(app: FastifyInstance, deps: PokerWsDeps): void {
  app.get('/v1/poker/ws', { websocket: true, schema: { hide: true } }, (socket, req) => {
    new PokerConnection(deps, socket as unknown as Socket, req);
  });
}
