import { Db8Error, type Dialect, type LiveOptions, LiveSocket, toWsUrl } from '@db8/sdk';
import type { z } from 'zod';
import {
  POKER_PROTOCOL_VERSION,
  type PokerActionPayloadSchema,
  PokerGameStateHeadSchema,
  type PokerServerMessage,
  PokerServerMessageSchema,
} from '../rules/index.ts';

/**
 * Seed 002's poker frames on `/v1/poker/ws`: `{type, table_id, seq, ts, id?, payload}`, the server
 * speaks first (`welcome`, then `game_state` after every change), `action` → `ack` | `error`.
 */

type Of<T extends PokerServerMessage['type']> = Extract<PokerServerMessage, { type: T }>;
export type PokerWelcome = Of<'welcome'>['payload'];
export type PokerAck = Of<'ack'>['payload'];
export type PokerAction = z.input<typeof PokerActionPayloadSchema>;

export interface PokerSocketOptions extends LiveOptions {
  /** The join's `ws_url`, or the server's base URL (`/v1/poker/ws` is added). */
  url: string;
  /** A seat's session token (from the join); without one, `tableId` watches as an observer. */
  token?: string;
  tableId?: string;
  format?: 'full' | 'compact';
  clientProtocolVersion?: string;
  /**
   * Check only the head of each `game_state` payload (status, to_act, turn_token, blinds:
   * GameStateHeadSchema) and pass the rest on unchecked: for a seat that checks in full
   * (GameStatePayloadSchema) only the states it answers. Full format only. Default false.
   */
  headOnlyStates?: boolean;
}

const PUSHES: ReadonlySet<string> = new Set(['game_state', 'hand_complete']);

export function pokerDialect(o: PokerSocketOptions): Dialect<PokerServerMessage, PokerWelcome> {
  const u = new URL(toWsUrl(o.url));
  if (!u.pathname.endsWith('/v1/poker/ws')) u.pathname = `${u.pathname.replace(/\/$/, '')}/v1/poker/ws`;
  if (o.token) u.searchParams.set('token', o.token);
  else if (o.tableId) u.searchParams.set('table_id', o.tableId);
  if (o.format) u.searchParams.set('format', o.format);
  return {
    url: () => u.href,
    parse: (text) => {
      const raw: unknown = JSON.parse(text);
      if (o.headOnlyStates && (raw as { type?: unknown } | null)?.type === 'game_state') {
        // The caller promised to check the payload in full before it reads past the head.
        const head = PokerGameStateHeadSchema.safeParse(raw);
        return head.success ? (raw as PokerServerMessage) : null;
      }
      const r = PokerServerMessageSchema.safeParse(raw);
      return r.success ? r.data : null;
    },
    pushTypes: PUSHES,
    async hello(c) {
      // The server greets unasked; hello makes it check our version (OUTDATED_CLIENT) and greet again.
      const m = await c.request('hello', {
        client_protocol_version: o.clientProtocolVersion ?? POKER_PROTOCOL_VERSION,
      });
      if (m.type !== 'welcome') throw new Db8Error(0, 'BAD_HELLO', `expected welcome, got ${m.type}`);
      return m.payload;
    },
    place(m) {
      // game_state is a full snapshot: only a newer seq matters. Seed 002 has no replay, so a
      // hand that ended while disconnected is not re-sent: callers backfill from REST on `live`.
      if (m.type === 'game_state') return { stream: 'state', seq: m.seq, order: 'latest' };
      if (m.type === 'hand_complete') return { stream: 'hand', seq: m.payload.hand_number, order: 'latest' };
      return null;
    },
  };
}

/** One poker table over the reconnecting client: each new game_state once, acks, typed errors. */
export class PokerSocket {
  readonly live: LiveSocket<PokerServerMessage, PokerWelcome>;

  constructor(o: PokerSocketOptions) {
    this.live = new LiveSocket(pokerDialect(o), o);
  }

  /** Connect and wait for the welcome; a refusal (OUTDATED_CLIENT, a bad token) rejects. */
  static async connect(o: PokerSocketOptions): Promise<PokerSocket> {
    const s = new PokerSocket({ failFast: true, ...o });
    s.live.start();
    await s.live.ready();
    return s;
  }

  /** Start connecting and return at once. */
  static open(o: PokerSocketOptions): PokerSocket {
    const s = new PokerSocket(o);
    s.live.start();
    return s;
  }

  get welcome(): PokerWelcome | null {
    return this.live.welcome;
  }

  /** `game_state` and `hand_complete` frames, each once, newest only. */
  on(fn: (m: Of<'game_state'> | Of<'hand_complete'>) => void): () => void {
    return this.live.on('push', (m) => {
      if (m.type === 'game_state' || m.type === 'hand_complete') fn(m);
    });
  }

  /**
   * Send an action; the ack, or the typed refusal (STALE_SEQ, NOT_YOUR_TURN …). The turn token is
   * the server's idempotency key, so a retry after a dropped link is safe (`duplicate: true`).
   */
  async act(payload: PokerAction): Promise<PokerAck> {
    const m = await this.live.requestIdempotent('action', payload);
    return (m as Of<'ack'>).payload;
  }

  close(): void {
    this.live.close();
  }
}
