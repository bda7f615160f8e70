import { LocalRoom } from '@db8/core';
import type { SqlDriver } from '@db8/server/src/store/index.ts';
import { migrate } from '@db8/server/src/store/migrate.ts';
import type { StoreFactory } from '@db8/server/test/store.helpers.ts';
import {
  type DeliberationAction,
  deliberation,
  OPERATOR,
  type ScriptOptions,
  scriptedAction,
} from '../../rules/index.ts';
import { deliberationModule } from '../../server/index.ts';
import { applyEntry } from '../../server/storage/index.ts';

/** Deliberation rooms played by scripted seats, projected entry by entry as the server would. */

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
const SEATS = [
  { id: 'ana', role: 'architect', score: 9.5, provider: 'openai', model: 'gpt-x' },
  { id: 'ben', role: 'critic', score: 9.1, provider: 'anthropic', model: 'claude-x' },
  { id: 'cai', role: 'reviewer', score: 8.7, provider: 'openai', model: 'gpt-x' },
  { id: 'dee', role: 'optimizer', score: 8.7, provider: 'anthropic', model: 'claude-x' },
  { id: 'eli', role: 'red_team', score: 8.2, provider: 'openai', model: 'gpt-x' },
  { id: 'fay', role: 'blue_team', score: 7.9, provider: 'anthropic', model: 'claude-x' },
];

export function deliberationConfig(id: string, patch: Record<string, unknown> = {}) {
  return {
    sessionId: id,
    topic: 'Design a token bucket rate limiter for the public API',
    seats: SEATS,
    task: { kind: 'code', language: 'typescript', confidence: 0.95 },
    ...patch,
  };
}

export type DelibRoom = LocalRoom<typeof deliberation>;

export function newRoom(id: string, patch: Record<string, unknown> = {}, seed = 'ab'.repeat(32)): DelibRoom {
  return new LocalRoom({
    protocol: deliberation,
    config: deliberationConfig(id, patch),
    seed,
    now: T0,
    id,
    salt: () => '00'.repeat(32),
  });
}

const script: ScriptOptions = {
  text: (c) => `${c.seat} ${c.kind} in round ${c.round}: use a token bucket per API key with burst capacity`,
  reflections: (c) =>
    c.kind === 'propose'
      ? [
          {
            rootCause: `refill arithmetic overflowed for ${c.seat}`,
            whatWentWrong: 'the bucket refilled past its capacity after an idle hour',
            whatToChange: 'clamp tokens to capacity before every take',
            confidence: 0.8,
          },
        ]
      : [],
};

/**
 * Plays the room to the end (approving gates, measuring code version 1 once), calling
 * `applyEntry` after every new entry with the state the room reached. Model calls are labelled
 * with the seat's provider and a deterministic latency and cost.
 */
export async function playProjected(room: DelibRoom, db: SqlDriver | null, maxSteps = 3000): Promise<void> {
  let now = room.lastTs;
  let projected = 0;
  let measured = false;
  const flush = async () => {
    if (!db) return;
    for (; projected < room.entries.length; projected++)
      await applyEntry(db, room.entries[projected]!, room.state, { initiatedBy: 'tester' });
  };
  await flush();
  for (let steps = 0; !room.closed && steps < maxSteps; steps++) {
    const s = room.state;
    now = Math.max(now, room.lastTs) + 1000;
    if (s.status === 'paused') {
      room.must(OPERATOR, { type: 'approve', reason: 'fine' }, now);
    } else if (!measured && s.codeVersions.length > 0) {
      measured = true;
      const measurement = { qualityScore: 0.7, testPassRate: 0.5, metrics: { complexity: 3 } };
      room.must(OPERATOR, { type: 'measure', version: 1, measurement }, now);
    } else {
      const seat = room.view({ kind: 'admin' }).waitingFor[0];
      if (seat === undefined) room.advance();
      else {
        const action = scriptedAction(room.view({ kind: 'seat', seat }), room.legal(seat), script);
        if (!action) throw new Error(`scripted seat ${seat} found nothing to do`);
        room.must(seat, withCall(action, seat, room.entries.length), now);
      }
    }
    await flush();
  }
  if (!room.closed) throw new Error('the deliberation did not finish');
}

function withCall(action: DeliberationAction, seat: string, n: number): DeliberationAction {
  if (!('call' in action)) return action;
  const spec = SEATS.find((s) => s.id === seat)!;
  const call = {
    provider: spec.provider,
    model: spec.model,
    latencyMs: spec.provider === 'openai' ? 100 + (n % 7) : 300 + (n % 5),
    inputTokens: 200,
    outputTokens: 50,
    costUsd: spec.provider === 'openai' ? 0.001 : 0.002,
  };
  return { ...action, call } as DeliberationAction;
}

/** Every projected row of the three seed tables (updated_at aside: it is the wall clock). */
export async function snapshotRows(db: SqlDriver): Promise<unknown[]> {
  const q = (sql: string) => db.query(sql);
  return [
    await q(
      `SELECT id, debate_id, topic, status, topology_type, coordination_protocol, config::text, initiated_by,
              created_at::text, completed_at::text, total_rounds, final_consensus_score::text, outcome::text,
              metadata::text FROM debate_sessions ORDER BY id`,
    ),
    await q(
      `SELECT id, session_id, round, phase, agent_id, agent_role, provider, model, content,
              confidence::text, tool_calls::text, test_results::text, reflections::text, metadata::text,
              created_at::text, response_time_ms FROM debate_turns ORDER BY id`,
    ),
    await q(
      `SELECT id, session_id, turn_id, language, code, version_number, quality_score::text,
              test_pass_rate::text, metrics::text, diff_from_previous, created_at::text
       FROM code_versions ORDER BY id`,
    ),
    await q(
      `SELECT id, session_id, debate_id, title, category, tier, score::text, created_at::text,
              expires_at::text FROM deliberation_lessons ORDER BY id`,
    ),
  ];
}

/** A store factory whose stores also hold the deliberation module's own tables (its migrations). */
export function withDeliberationTables(factory: StoreFactory): StoreFactory {
  return async () => {
    const t = await factory();
    await migrate(t.store.db, deliberationModule.migrations ?? []);
    return t;
  };
}
