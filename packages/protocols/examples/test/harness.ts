import type { ApplyResult, Transition, Viewer, Visibility } from '@db8/core';
import {
  type Outcome,
  type SealedBidAction,
  type SealedBidState,
  type SealedBidView,
  sealedBid,
} from '../src/index.ts';

/**
 * A miniature runtime for tests: it assigns seqs the way the real one does (genesis is seq 0),
 * parses actions with the protocol's schema, deep-freezes every state so any mutation by the
 * protocol throws, and records the entries it would have written.
 */

export interface LoggedEntry {
  seq: number;
  kind: 'action' | 'tick';
  actor: string;
  now: number;
  action?: SealedBidAction;
  visibility?: Visibility;
  reveal?: readonly number[];
  milestone?: string;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const baseConfig = {
  item: 'a 1962 Gibson ES-335',
  bidders: 3,
  reservePrice: 100,
  biddingWindowMs: 60_000,
  revealWindowMs: 10_000,
  turnWindowMs: 5_000,
  rule: 'first-price',
} as const;

export class Room {
  state: SealedBidState;
  readonly log: LoggedEntry[] = [];
  nextSeq = 1;

  constructor(config: unknown = baseConfig, now = 0) {
    const parsed = sealedBid.configSchema.parse(config);
    this.state = deepFreeze(
      sealedBid.setup(parsed, { seats: sealedBid.seats(parsed), seed: 'ab'.repeat(32), now }),
    );
  }

  /** Parse like the runtime would, apply, and on success append and adopt the new state. */
  act(seat: string, action: unknown, now: number): ApplyResult<SealedBidState> {
    const parsed = sealedBid.actionSchema.parse(action);
    const seq = this.nextSeq;
    const res = sealedBid.apply(this.state, { seat, action: parsed, now, seq });
    if (res.ok) {
      this.state = deepFreeze(res.state);
      this.nextSeq += 1;
      this.log.push(entry(seq, 'action', seat, now, res, parsed));
    }
    return res;
  }

  /** Act and insist on success; returns the transition for inspection. */
  must(seat: string, action: unknown, now: number): Transition<SealedBidState> {
    const res = this.act(seat, action, now);
    if (!res.ok) throw new Error(`${seat} ${JSON.stringify(action)} rejected: ${res.error.code}`);
    return res;
  }

  tick(now: number): Transition<SealedBidState> | null {
    const seq = this.nextSeq;
    const res = sealedBid.tick(this.state, now, seq);
    if (res) {
      this.state = deepFreeze(res.state);
      this.nextSeq += 1;
      this.log.push(entry(seq, 'tick', 'system', now, res));
    }
    return res;
  }

  view(viewer: Viewer): SealedBidView {
    return sealedBid.view(this.state, viewer);
  }

  seat(seat: string): SealedBidView {
    return this.view({ kind: 'seat', seat });
  }

  token(seat: string): string | undefined {
    return sealedBid.legal(this.state, seat).turnToken;
  }

  result(): Outcome | null {
    return sealedBid.result(this.state);
  }
}

function entry(
  seq: number,
  kind: LoggedEntry['kind'],
  actor: string,
  now: number,
  t: Transition<SealedBidState>,
  action?: SealedBidAction,
): LoggedEntry {
  const e: LoggedEntry = { seq, kind, actor, now };
  if (action) e.action = action;
  if (t.visibility) e.visibility = t.visibility;
  if (t.reveal) e.reveal = t.reveal;
  if (t.milestone) e.milestone = t.milestone;
  return e;
}
