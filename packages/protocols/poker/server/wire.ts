import type { Viewer } from '@db8/core';
import {
  ApiError,
  type AuthContext,
  type Frame,
  isSupportedVersion,
  type State,
  viewerIn,
  type WireCodec,
  type WireCommand,
  type WireHost,
  type WireOpened,
  type WireReply,
  type WireSession,
  zodDetails,
} from '@db8/server/kit';
import { z } from 'zod';
import {
  compactOf,
  gameStateOf,
  type HandSummary,
  handCompleteOf,
  type LegalTableAction,
  POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
  POKER_PROTOCOL_VERSION,
  PokerClientMessageSchema,
  type TableConfig,
  type TableView,
} from '../rules/index.ts';
import { GameStateJson } from './game-state-json.ts';
import { presenceOf } from './presence.ts';
import { POKER, seatName, seatNumber } from './service.ts';

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

/** The last envelope head made: a table's seats get theirs in one go, mostly with the same ts. */
let lastHead = { type: '', tableId: null as string | null, seq: -1, now: -1, text: '' };

/** What goes before a payload already in JSON to make `envelope`'s message (then a closing `}`). */
function envelopeHead(type: string, tableId: string | null, seq: number, now: number) {
  const h = lastHead;
  if (h.seq === seq && h.now === now && h.tableId === tableId && h.type === type) return h.text;
  const head = JSON.stringify({ type, table_id: tableId, seq, ts: new Date(now).toISOString() });
  const text = `${head.slice(0, -1)},"payload":`;
  lastHead = { type, tableId, seq, now, text };
  return text;
}

/** The last `hand_complete` made: every seat of the table gets the same one after that state. */
let lastHandComplete = { tableId: null as string | null, seq: -1, hand: -1, bytes: Buffer.alloc(0) };

/** `hand_complete` for hand `h` after state `seq`, built once for all the table's seats. */
function handComplete(tableId: string | null, seq: number, h: HandSummary, now: number): Buffer {
  const last = lastHandComplete;
  if (last.seq === seq && last.hand === h.number && last.tableId === tableId) return last.bytes;
  const bytes = Buffer.from(envelope('hand_complete', tableId, seq, handCompleteOf(h), now));
  lastHandComplete = { tableId, seq, hand: h.number, bytes };
  return bytes;
}

/** One per process: every table socket's `game_state` shares the parts common to its table's seats. */
const gameStates = new GameStateJson();

export function pokerSkillDocUrl(ctx: Pick<WireHost, 'config'>): string {
  return `${ctx.config.publicUrl}/v1/tables/skill.md`;
}

/** OUTDATED_CLIENT (426) for a poker client below the minimum version, with where to read up. */
export function pokerOutdated(v: string, skillDocUrl: string): ApiError {
  return new ApiError(426, 'OUTDATED_CLIENT', `client protocol ${v} is no longer supported`, {
    protocol_version: POKER_PROTOCOL_VERSION,
    min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
    skill_doc_url: skillDocUrl,
  });
}

/**
 * Seed 002's table socket (§8) as a codec on the generic realtime connection: one table per
 * connection (the session token's, or `?table_id=` to watch); `welcome` on connect; for each state
 * of the table, the hands that ended since the last one (`hand_complete`) and a full `game_state`
 * (your hole cards, and for the seat to act the legal actions and `turn_token`), `format=compact`
 * for fewer tokens; `action` → `ack` | `error` (STALE_SEQ, SEAT_NOT_HELD…). Entries are not sent.
 */
export const pokerWire: WireCodec = {
  path: '/v1/poker/ws',
  // Agents that answer every state quickly: more headroom than the generic socket.
  rate: { burst: 100, perSec: 50 },
  session: (ctx) => new PokerSession(ctx),
};

class PokerSession implements WireSession {
  private tableId: string | null = null;
  private seat: number | null = null;
  private principal: string | null = null;
  private format: 'full' | 'compact' = 'full';
  private timeoutMs = 0;
  /** The newest hand the last game_state knew of: hand_complete goes out for any after it. */
  private lastHand: number | null = null;
  private readonly skillDocUrl: string;

  constructor(private readonly ctx: WireHost) {
    this.skillDocUrl = pokerSkillDocUrl(ctx);
  }

  async open({ query, auth }: { query: unknown; auth: AuthContext | null }): Promise<WireOpened> {
    const q = QuerySchema.safeParse(query);
    if (!q.success) throw new ApiError(400, 'BAD_REQUEST', 'bad query string');
    this.format = q.data.format;
    const v = q.data.client_protocol_version;
    if (v !== undefined && !isSupportedVersion(v)) throw pokerOutdated(v, this.skillDocUrl);
    const tableId = auth?.room ?? q.data.table_id;
    if (!tableId) throw new ApiError(400, 'BAD_REQUEST', 'connect with a session token or ?table_id=');
    const room = await this.ctx.runtime.getRoom(tableId).catch(() => null);
    if (room?.protocol !== POKER) throw new ApiError(404, 'TABLE_NOT_FOUND', `no poker table ${tableId}`);
    const viewer: Viewer = await viewerIn(this.ctx, auth, tableId);
    this.tableId = tableId;
    this.seat = viewer.kind === 'seat' ? seatNumber(viewer.seat) : null;
    this.timeoutMs = (room.config as TableConfig).actionTimeoutMs;
    if (auth) {
      this.principal = auth.principal;
      presenceOf(this.ctx).connect(auth.principal, tableId, this.seat);
    }
    return { helloFirst: false, greet: true, follow: tableId };
  }

  received(): void {
    if (this.principal) presenceOf(this.ctx).touch(this.principal);
  }

  closed(): void {
    if (this.principal && this.tableId) presenceOf(this.ctx).disconnect(this.principal);
  }

  decode(msg: unknown): WireCommand {
    const parsed = PokerClientMessageSchema.safeParse(msg);
    if (!parsed.success) {
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        'message does not match the schema',
        zodDetails(parsed.error),
      );
    }
    const m = parsed.data;
    const id = m.id !== undefined ? { id: m.id } : {};
    if (m.type === 'ping') return { type: 'ping', ...id };
    if (m.type === 'hello') return { type: 'hello', ...id, version: m.payload.client_protocol_version };
    if (!this.tableId || this.seat === null)
      throw new ApiError(403, 'SEAT_NOT_HELD', 'observers cannot act: join the table for a seated token');
    const p = m.payload;
    if (p.seat_id !== this.seat)
      throw new ApiError(403, 'SEAT_NOT_HELD', `this connection is seat ${this.seat}, not ${p.seat_id}`);
    return {
      type: 'action',
      ...id,
      roomId: this.tableId,
      seat: seatName(this.seat),
      action: p.kind === 'raiseTo' ? { kind: 'raiseTo', amount: p.amount } : { kind: p.kind },
      turnToken: p.turn_token,
      ...(p.expected_seq !== undefined ? { expectedSeq: p.expected_seq } : {}),
    };
  }

  outdated(v: string): ApiError | null {
    return isSupportedVersion(v) ? null : pokerOutdated(v, this.skillDocUrl);
  }

  reply(r: WireReply, seq: number, now: number): string | null {
    const t = this.tableId;
    switch (r.type) {
      case 'welcome':
        return envelope(
          'welcome',
          t,
          seq,
          {
            protocol_version: POKER_PROTOCOL_VERSION,
            min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
            skill_doc_url: this.skillDocUrl,
            seat_id: this.seat,
            agent_id: r.auth?.principal ?? null,
            action_timeout_ms: this.timeoutMs,
            format: this.format,
          },
          now,
          r.id,
        );
      case 'pong':
        return envelope('pong', t, seq, {}, now, r.id);
      case 'ack':
        return envelope(
          'ack',
          t,
          r.ack.seq,
          { seq: r.ack.seq, duplicate: r.ack.duplicate, turn_token: r.command.turnToken },
          now,
          r.id,
        );
      case 'error':
        return envelope('error', t, seq, r.error, now, r.id);
      default:
        return null; // subscribed / unsubscribed: the table is followed implicitly
    }
  }

  entry(): readonly string[] {
    return [];
  }

  /** The hands that ended since the last state sent, then `game_state` (each encoded once per class). */
  state(f: Frame): Buffer[] {
    const s = f.body as State;
    const view = s.view as TableView;
    const out: Buffer[] = [];
    const t = this.tableId;
    if (this.lastHand !== null) {
      for (const h of view.recent) {
        if (h.number > this.lastHand)
          out.push(f.encode(`poker:hand:${h.number}`, () => handComplete(t, s.seq, h, f.ts)));
      }
    }
    this.lastHand = view.recent.at(-1)?.number ?? 0;
    out.push(
      f.encode(`poker:${this.format}`, () => {
        const legal = s.legal
          ? {
              actions: s.legal.actions as unknown as readonly LegalTableAction[],
              ...(s.turn_token !== null ? { turnToken: s.turn_token } : {}),
            }
          : undefined;
        if (this.format === 'compact')
          return envelope('game_state', t, s.seq, compactOf(gameStateOf(view, legal, s.deadline_ms)), f.ts);
        const head = envelopeHead('game_state', t, s.seq, f.ts);
        return gameStates.bytesOfView(t ?? '', s.seq, view, legal, s.deadline_ms, head, '}');
      }),
    );
    return out;
  }
}
