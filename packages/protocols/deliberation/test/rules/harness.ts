import { LocalRoom } from '@db8/core';
import { deliberation, OPERATOR, type ScriptOptions, scriptedAction } from '../../rules/index.ts';

/** Deliberation tests run on core's LocalRoom: schemas parse every input, every state is frozen. */

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
export const SEED = 'ab'.repeat(32);

export const SIX = [
  { id: 'ana', role: 'architect', score: 9.5 },
  { id: 'ben', role: 'critic', score: 9.1 },
  { id: 'cai', role: 'reviewer', score: 8.7 },
  { id: 'dee', role: 'optimizer', score: 8.7 },
  { id: 'eli', role: 'red_team', score: 8.2 },
  { id: 'fay', role: 'blue_team', score: 7.9 },
] as const;

export function configFor(
  patch: Record<string, unknown> = {},
  seats: readonly { id: string; role: string; score: number }[] = SIX,
) {
  return {
    sessionId: 'delib_test_1',
    topic: 'Design a rate limiter for the public API',
    seats: seats.map((s) => ({ ...s, provider: 'scripted', model: 'scripted:test' })),
    ...patch,
  };
}

export class Room extends LocalRoom<typeof deliberation> {
  constructor(config: unknown = configFor(), seed = SEED) {
    super({ protocol: deliberation, config, seed, now: T0, id: 'delib_test_1', salt: () => '00'.repeat(32) });
  }
}

export interface DriveOptions extends ScriptOptions {
  /** What the operator does at a gate (default approve). */
  gate?: 'approve' | 'reject' | 'wait';
  /** Called before each seat acts (e.g. to snapshot the layout). */
  before?: (room: Room, seat: string) => void;
  /** Seats to forfeit when first offered a turn in this round/phase, e.g. `{ seat: 'ben', phase: 'critique' }`. */
  forfeit?: { seat: string; round: number; phase: string };
  /** Seats that never answer: the run waits for their deadlines instead. */
  silent?: readonly string[];
  maxSteps?: number;
}

/** Play scripted seats until the session ends (or `maxSteps`), one second per input. */
export function drive(room: Room, opts: DriveOptions = {}): { steps: number } {
  let now = room.lastTs;
  let steps = 0;
  const max = opts.maxSteps ?? 2000;
  while (!room.closed && steps < max) {
    steps++;
    const s = room.state;
    if (s.status === 'paused') {
      if (opts.gate === 'wait') {
        room.advance();
        continue;
      }
      now += 1000;
      room.must(OPERATOR, { type: opts.gate ?? 'approve', reason: 'looks fine' }, now);
      continue;
    }
    const seat = room.view({ kind: 'admin' }).waitingFor.find((id) => !opts.silent?.includes(id));
    if (seat === undefined) {
      room.advance();
      continue;
    }
    now = Math.max(now, room.lastTs) + 1000;
    const f = opts.forfeit;
    if (f && f.seat === seat && f.round === s.round && f.phase === s.phase && s.active.includes(seat)) {
      room.must(seat, { type: 'forfeit', reason: 'scripted forfeit' }, now);
      continue;
    }
    opts.before?.(room, seat);
    const action = scriptedAction(room.view({ kind: 'seat', seat }), room.legal(seat), opts);
    if (!action) throw new Error(`scripted seat ${seat} found nothing to do in ${s.phase}/${s.step}`);
    room.must(seat, action, now);
  }
  return { steps };
}
