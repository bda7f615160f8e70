import type { ApplyResult, Transition, Viewer } from '@db8/core';
import {
  HOUSE,
  type LegalTableAction,
  poker,
  type ReplayEntry,
  type TableAction,
  type TableConfigInput,
  type TableState,
  type TableView,
} from '../../src/index.ts';

/**
 * A miniature runtime for the table: seqs from 1 after a genesis entry, actions parsed with the
 * protocol's schema, every state deep-frozen (a mutation throws), and a log in the shape
 * replayTable reads, so tests can refold what they played.
 */

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const SEED = 'a1'.repeat(32);

export const baseConfig: TableConfigInput = {
  seats: 3,
  smallBlind: 5,
  bigBlind: 10,
  startingStack: 1000,
  actionTimeoutMs: 5000,
  handIntervalMs: 100,
};

export class Table {
  state: TableState;
  readonly log: ReplayEntry[];
  nextSeq = 1;
  now: number;

  constructor(config: unknown = baseConfig, seed = SEED, now = 1_000_000) {
    const parsed = poker.configSchema.parse(config);
    this.now = now;
    this.state = deepFreeze(poker.setup(parsed, { seats: poker.seats(parsed), seed, now }));
    this.log = [
      {
        seq: 0,
        kind: 'genesis',
        actor: 'system',
        ts: now,
        payload: { protocol: 'poker', version: 1, config: parsed, seats: poker.seats(parsed) },
      },
    ];
  }

  act(seat: string, action: unknown, now = this.now): ApplyResult<TableState> {
    const parsed = poker.actionSchema.parse(action);
    this.now = Math.max(this.now, now);
    const seq = this.nextSeq;
    const res = poker.apply(this.state, { seat, action: parsed, now: this.now, seq });
    if (res.ok) {
      this.state = deepFreeze(res.state);
      this.nextSeq += 1;
      this.log.push({ seq, kind: 'action', actor: seat, ts: this.now, payload: parsed });
    }
    return res;
  }

  must(seat: string, action: TableAction | Record<string, unknown>, now = this.now): Transition<TableState> {
    const res = this.act(seat, action, now);
    if (!res.ok)
      throw new Error(`${seat} ${JSON.stringify(action)} refused: ${res.error.code} ${res.error.message}`);
    return res;
  }

  tick(now = this.now): Transition<TableState> | null {
    this.now = Math.max(this.now, now);
    const seq = this.nextSeq;
    const res = poker.tick(this.state, this.now, seq);
    if (res) {
      this.state = deepFreeze(res.state);
      this.nextSeq += 1;
      this.log.push({ seq, kind: 'tick', actor: 'system', ts: this.now, payload: { deadline: 0 } });
    }
    return res;
  }

  /** Advance to the next deadline and tick it. */
  tickDue(): Transition<TableState> | null {
    const d = poker.deadline(this.state);
    if (d === null) return null;
    return this.tick(Math.max(d, this.now));
  }

  view(viewer: Viewer): TableView {
    return poker.view(this.state, viewer);
  }

  seat(i: number): TableView {
    return this.view({ kind: 'seat', seat: `seat_${i}` });
  }

  legal(i: number): { actions: readonly LegalTableAction[]; turnToken?: string } {
    return poker.legal(this.state, `seat_${i}`) as {
      actions: readonly LegalTableAction[];
      turnToken?: string;
    };
  }

  toAct(): number | null {
    return this.state.hand ? (this.view({ kind: 'admin' }).hand?.toAct ?? null) : null;
  }

  sitAll(n = this.state.config.seats): void {
    for (let i = 0; i < n; i++) this.must(`seat_${i}`, { kind: 'sitIn' });
  }

  house(action: TableAction): Transition<TableState> {
    return this.must(HOUSE, action);
  }
}
