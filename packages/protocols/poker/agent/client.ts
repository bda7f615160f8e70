import { timerDelay } from '@db8/core';
import { Db8Error } from '@db8/sdk';
import { PokerSocket } from '../client/index.ts';
import {
  GameStateHeadSchema,
  type GameStatePayload,
  GameStatePayloadSchema,
  HandCompletePayloadSchema,
  JoinTableResponseSchema,
  POKER_PROTOCOL_VERSION,
} from '../rules/index.ts';
import { type PokerStrategy, seededRand } from './strategies.ts';

/**
 * Runs one agent at one table, as any outside agent would (seed 002 §3.2): register (or reuse an
 * API key), join over REST, connect the SDK's poker socket with the session token (it reconnects
 * and skips states already seen), answer every game_state that carries our turn_token, and stop
 * when the table does.
 */

export interface AgentRunOptions {
  baseUrl: string;
  tableId: string;
  strategy: PokerStrategy;
  name?: string;
  apiKey?: string;
  seed?: number;
  /** Give up after this long without the table ending (ms). */
  maxRunMs?: number;
}

export interface AgentRunResult {
  agent: string;
  strategy: string;
  agentId: string;
  seat: number;
  /** Chips won (+) or lost (−) in each hand this seat was dealt into. */
  hands: Array<{ hand: number; net: number }>;
  bigBlind: number;
  actions: number;
  /** Action → ack round trips, ms. */
  latencies: number[];
  errors: string[];
}

async function post(url: string, body: unknown, token?: string): Promise<unknown> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as unknown;
  if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

// Refusals that only mean "the table moved on": a fresh game_state follows.
const BENIGN = new Set(['STALE_SEQ', 'STALE_TURN_TOKEN', 'TURN_EXPIRED', 'NOT_YOUR_TURN', 'ROOM_CLOSED']);

export async function runPokerAgent(opts: AgentRunOptions): Promise<AgentRunResult> {
  const name = opts.name ?? opts.strategy.name;
  const apiKey =
    opts.apiKey ?? ((await post(`${opts.baseUrl}/v1/agents`, { name })) as { api_key: string }).api_key;
  const join = JoinTableResponseSchema.parse(
    await post(
      `${opts.baseUrl}/v1/tables/${opts.tableId}/join`,
      { client_protocol_version: POKER_PROTOCOL_VERSION },
      apiKey,
    ),
  );
  const rand = seededRand(opts.seed ?? 1);
  const result: AgentRunResult = {
    agent: name,
    strategy: opts.strategy.name,
    agentId: join.agent_id,
    seat: join.seat_id,
    hands: [],
    bigBlind: 0,
    actions: 0,
    latencies: [],
    errors: [],
  };
  // Most states are other seats' turns: check each in full only when it is ours to answer.
  const socket = await PokerSocket.connect({
    url: join.ws_url,
    token: join.session_token,
    headOnlyStates: true,
  });
  const answered = new Set<string>();

  const act = async (gs: GameStatePayload, seq: number, fallback: boolean): Promise<void> => {
    const d = fallback
      ? gs.legal_actions?.some((a) => a.kind === 'check')
        ? { kind: 'check' as const }
        : { kind: 'call' as const }
      : opts.strategy.decide(gs, rand);
    const payload = {
      turn_token: gs.turn_token!,
      seat_id: join.seat_id,
      kind: d.kind,
      ...(d.kind === 'raiseTo' ? { amount: d.amount } : {}),
      expected_seq: seq,
    };
    result.actions++;
    const at = performance.now();
    try {
      await socket.act(payload);
      result.latencies.push(performance.now() - at);
    } catch (e) {
      const code = e instanceof Db8Error ? e.code : 'FAILED';
      if (BENIGN.has(code) || socket.live.status === 'closed') return;
      result.errors.push(`${code} on ${opts.strategy.name}'s move`);
      // A strategy bug must not cost the seat a timeout: fall back to check/call once.
      if (!fallback) await act(gs, seq, true);
    }
  };

  await new Promise<void>((resolve) => {
    const timer = setTimeout(
      () => {
        result.errors.push('gave up: the table did not end in time');
        socket.close();
      },
      timerDelay(opts.maxRunMs ?? 30 * 60_000),
    );
    socket.live.on('status', (s) => {
      if (s !== 'closed') return;
      clearTimeout(timer);
      if (socket.live.error) result.errors.push(`${socket.live.error.code}: ${socket.live.error.message}`);
      resolve();
    });
    socket.on((m) => {
      if (m.type === 'game_state') {
        const head = GameStateHeadSchema.parse(m.payload);
        result.bigBlind = head.blinds.big;
        if (head.status === 'stopped') return socket.close();
        if (head.turn_token && head.to_act === join.seat_id && !answered.has(head.turn_token)) {
          answered.add(head.turn_token);
          void act(GameStatePayloadSchema.parse(m.payload), m.seq, false);
        }
      } else {
        const h = HandCompletePayloadSchema.parse(m.payload);
        const k = h.seats.indexOf(join.seat_id);
        if (k >= 0 && !h.cancelled) result.hands.push({ hand: h.hand_number, net: h.net[k]! });
      }
    });
  });
  return result;
}
