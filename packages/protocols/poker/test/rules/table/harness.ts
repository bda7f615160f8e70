import { LocalRoom, type Stepped, type StoredEntry } from '@db8/core';
import {
  HOUSE,
  type LegalTableAction,
  poker,
  type TableAction,
  type TableConfigInput,
  type TableState,
  type TableView,
} from '../../../rules/index.ts';

/**
 * Table tests run on core's LocalRoom: seqs from 1 after the genesis entry, actions parsed with the
 * protocol's schema, every state deep-frozen (a mutation throws), time never running back, and the
 * entries a server table writes (`entries`), which replayTable refolds.
 */

export const SEED = 'a1'.repeat(32);

export const baseConfig: TableConfigInput = {
  seats: 3,
  smallBlind: 5,
  bigBlind: 10,
  startingStack: 1000,
  actionTimeoutMs: 5000,
  handIntervalMs: 100,
};

export class Table extends LocalRoom<typeof poker> {
  /** The test's clock: inputs default to it; tests move it forward (`t.now += ms`). */
  private clock: number;

  constructor(config: unknown = baseConfig, seed = SEED, now = 1_000_000) {
    super({ protocol: poker, config, seed, now });
    this.clock = now;
  }

  get now(): number {
    return Math.max(this.clock, this.lastTs);
  }
  set now(t: number) {
    this.clock = t;
  }

  /** The table's stored entries (genesis first), as a server table writes them. */
  get log(): StoredEntry[] {
    return this.entries;
  }

  override act(seat: string, action: unknown, now = this.now): ReturnType<LocalRoom<typeof poker>['act']> {
    this.clock = Math.max(this.clock, now);
    return super.act(seat, action, this.clock);
  }

  override must(
    seat: string,
    action: TableAction | Record<string, unknown>,
    now = this.now,
  ): Stepped<TableState> {
    return super.must(seat, action, now);
  }

  override tick(now = this.now): Stepped<TableState> | null {
    this.clock = Math.max(this.clock, now);
    return super.tick(this.clock);
  }

  /** Advance to the next deadline and tick it. */
  tickDue(): Stepped<TableState> | null {
    return this.advance();
  }

  seat(i: number): TableView {
    return this.view({ kind: 'seat', seat: `seat_${i}` });
  }

  /** Legal actions of seat i (or a seat id). */
  override legal(seat: number | string): { actions: readonly LegalTableAction[]; turnToken?: string } {
    return super.legal(typeof seat === 'number' ? `seat_${seat}` : seat) as {
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

  house(action: TableAction): Stepped<TableState> {
    return this.must(HOUSE, action);
  }
}
