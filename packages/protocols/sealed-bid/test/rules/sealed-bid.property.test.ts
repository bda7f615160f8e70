import { canonicalize, type Viewer } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REJECTION_CODES,
  type SealedBidState,
  SealedBidStateSchema,
  SealedBidViewSchema,
  sealedBid,
} from '../../rules/index.ts';
import { Room } from './harness.ts';

/**
 * Random scripts of actions and ticks, from every seat (plus a stranger), with good, junk and
 * missing turn tokens, at monotonically increasing times.
 */

const configArb = fc.record({
  item: fc.constant('lot 7'),
  bidders: fc.integer({ min: 2, max: 4 }),
  reservePrice: fc.integer({ min: 0, max: 50 }),
  biddingWindowMs: fc.integer({ min: 50, max: 600 }),
  revealWindowMs: fc.integer({ min: 50, max: 500 }),
  turnWindowMs: fc.integer({ min: 50, max: 500 }),
  rule: fc.constantFrom('first-price' as const, 'second-price' as const),
});
type Config = typeof configArb extends fc.Arbitrary<infer C> ? C : never;

const dtArb = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 30 }) },
  { weight: 1, arbitrary: fc.nat({ max: 800 }) },
);
// Amounts on a coarse grid topped by a popular 120, so ties at the top are common.
const amountArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(120) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 12 }).map((n) => n * 10) },
);

const stepArb = fc.oneof(
  // Anything from anyone: mostly nonsense, which is the point.
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('act' as const),
      who: fc.constantFrom('bidder', 'bidder', 'bidder', 'bidder', 'auctioneer', 'stranger'),
      idx: fc.nat({ max: 9 }),
      type: fc.constantFrom('bid', 'bid', 'raise', 'pass', 'confirm', 'withdraw'),
      amount: amountArb,
      alt: fc.nat({ max: 300 }),
      token: fc.constantFrom('legal', 'legal', 'none', 'junk'),
      dt: dtArb,
    }),
  },
  // A legal move by whoever is to act (a random bidder while bidding), to reach the late phases.
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('play' as const),
      idx: fc.nat({ max: 9 }),
      choice: fc.nat({ max: 3 }),
      amount: amountArb,
      alt: fc.nat({ max: 300 }),
      extra: fc.nat({ max: 30 }),
      dt: dtArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('tick' as const), dt: dtArb }) },
);
type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;
type Move = Exclude<Step, { t: 'tick' }>;
const scriptArb = fc.array(stepArb, { maxLength: 80, size: 'medium' });

const ALL_SEATS = [...Array.from({ length: 10 }, (_, i) => `bidder_${i + 1}`), 'auctioneer'];

function seatOf(room: Room, config: Config, step: Move): string {
  if (step.t === 'play') {
    return ALL_SEATS.find((s) => room.token(s) !== undefined) ?? `bidder_${(step.idx % config.bidders) + 1}`;
  }
  if (step.who === 'bidder') return `bidder_${(step.idx % config.bidders) + 1}`;
  return step.who;
}

function actionOf(room: Room, seat: string, step: Move, amount: number): unknown {
  const legal = sealedBid.legal(room.state, seat);
  if (step.t === 'play') {
    const pick = legal.actions[step.choice % Math.max(1, legal.actions.length)] as {
      type: string;
      minAmount?: number;
    };
    if (!pick) return { type: 'bid', amount };
    if (pick.type === 'bid') return { type: 'bid', amount };
    const move: Record<string, unknown> = { type: pick.type, turnToken: legal.turnToken };
    if (pick.type === 'raise') move.amount = (pick.minAmount ?? 1) + step.extra;
    return move;
  }
  if (step.type === 'bid') return { type: 'bid', amount };
  const base: Record<string, unknown> =
    step.type === 'raise' ? { type: 'raise', amount } : { type: step.type };
  const token = step.token === 'legal' ? legal.turnToken : step.token === 'junk' ? 'sb:junk' : undefined;
  if (token !== undefined) base.turnToken = token;
  return base;
}

interface Trace {
  room: Room;
  /** Per step: 'tick', 'tick-idle', 'ok', or the rejection code. */
  outcomes: string[];
  states: SealedBidState[];
}

/** Run a script; `amountFor` lets a caller change what a given seat bids. */
function run(
  config: Config,
  script: readonly Step[],
  amountFor: (seat: string, step: Move) => number = (_s, step) => step.amount,
  check?: (room: Room, before: SealedBidState, outcome: string, now: number) => void,
): Trace {
  const room = new Room(config, 1_000);
  const outcomes: string[] = [];
  const states: SealedBidState[] = [];
  let now = 1_000;
  for (const step of script) {
    now += step.dt;
    const before = room.state;
    let outcome: string;
    if (step.t === 'tick') {
      outcome = room.tick(now) ? 'tick' : 'tick-idle';
    } else {
      const seat = seatOf(room, config, step);
      const res = room.act(seat, actionOf(room, seat, step, amountFor(seat, step)), now);
      outcome = res.ok ? 'ok' : res.error.code;
    }
    outcomes.push(outcome);
    states.push(room.state);
    check?.(room, before, outcome, now);
  }
  return { room, outcomes, states };
}

function viewersOf(config: Config): Viewer[] {
  const seats = Array.from({ length: config.bidders }, (_, i) => `bidder_${i + 1}`);
  return [
    ...seats.map((seat) => ({ kind: 'seat', seat }) as const),
    { kind: 'seat', seat: 'auctioneer' },
    { kind: 'observer' },
    { kind: 'admin' },
  ];
}

const RUNS = { numRuns: 300 };

describe('sealed-bid: properties over random scripts', () => {
  it('never throws, only rejects with typed codes, and keeps its invariants', () => {
    fc.assert(
      fc.property(configArb, scriptArb, (config, script) => {
        const reserve = config.reservePrice;
        run(config, script, undefined, (room, before, outcome, now) => {
          const state = room.state;
          const last = room.log.at(-1);
          if (outcome === 'ok' || outcome === 'tick') {
            expect(state.counter).toBe(before.counter + 1);
            expect(SealedBidStateSchema.safeParse(state).success).toBe(true);
            if (last?.kind === 'action' && last.action?.type === 'bid') {
              expect(last.visibility).toEqual({ kind: 'seat', seat: last.actor });
            } else {
              expect(last?.visibility).toBeUndefined();
            }
            if (last?.reveal) {
              // Exactly each bidder's latest bid, as logged.
              const latest = new Map<string, number>();
              for (const e of room.log) if (e.action?.type === 'bid') latest.set(e.actor, e.seq);
              expect([...last.reveal]).toEqual([...latest.values()].sort((a, b) => a - b));
              expect(state.phase).toBe('reveal');
            }
          } else if (outcome !== 'tick-idle') {
            expect(REJECTION_CODES).toContain(outcome);
            expect(state).toBe(before);
          }
          // One tick per instant settles everything due.
          if (outcome === 'tick' || outcome === 'tick-idle')
            expect(sealedBid.tick(state, now, room.nextSeq)).toBeNull();
          if (state === before) return; // unchanged: already checked below when it was new
          expect(sealedBid.isOver(state)).toBe(sealedBid.result(state) !== null);
          expect(sealedBid.deadline(state) === null).toBe(sealedBid.isOver(state));
          const holders = viewersOf(config).filter(
            (v) => v.kind === 'seat' && sealedBid.legal(state, v.seat).turnToken !== undefined,
          );
          expect(holders.length).toBeLessThanOrEqual(1);
          for (const viewer of viewersOf(config)) {
            const view = sealedBid.view(state, viewer);
            expect(SealedBidViewSchema.safeParse(view).success).toBe(true);
            canonicalize(view); // views and legal moves go on the wire: plain JSON, no undefined
            if (viewer.kind === 'seat') canonicalize(sealedBid.legal(state, viewer.seat));
          }
          const result = sealedBid.result(state);
          if (result?.sold) {
            const top = result.ranking[0];
            expect(result.winner).toBe(top?.seat);
            expect(result.price).toBeGreaterThanOrEqual(reserve);
            expect(result.price).toBeLessThanOrEqual(top?.amount ?? -1);
          }
        });
      }),
      RUNS,
    );
  });

  it('before the reveal, no view depends on another bidder’s amounts', () => {
    fc.assert(
      fc.property(configArb, scriptArb, fc.nat(), (config, script, pick) => {
        const focus = `bidder_${(pick % config.bidders) + 1}`;
        const reserve = config.reservePrice;
        // Same script, but every other bidder bids something else (still on the same side of the reserve).
        const alt = (seat: string, step: Move) =>
          seat === focus || step.amount < reserve ? step.amount : Math.max(1, reserve) + step.alt;
        const a = run(config, script);
        const b = run(config, script, alt);
        const watchers: Viewer[] = [
          { kind: 'seat', seat: focus },
          { kind: 'seat', seat: 'auctioneer' },
          { kind: 'observer' },
        ];
        for (let i = 0; i < script.length; i++) {
          const sa = a.states[i]!;
          const sb = b.states[i]!;
          if (sa.phase !== 'bidding' || sb.phase !== 'bidding') {
            expect(sa.phase).toBe(sb.phase); // the reveal happens at the same step either way
            break;
          }
          expect(b.outcomes[i]).toBe(a.outcomes[i]);
          for (const viewer of watchers) {
            expect(sealedBid.view(sb, viewer)).toEqual(sealedBid.view(sa, viewer));
          }
          expect(sealedBid.legal(sb, focus)).toEqual(sealedBid.legal(sa, focus));
          expect(sealedBid.deadline(sb)).toBe(sealedBid.deadline(sa));
          // And directly: the focus sees no amount but its own.
          for (const row of sealedBid.view(sa, { kind: 'seat', seat: focus }).bidders) {
            if (row.seat !== focus) expect(row.amount).toBeUndefined();
          }
        }
      }),
      RUNS,
    );
  });

  it('is deterministic: the same inputs give the same states, and folding the log reproduces them', () => {
    fc.assert(
      fc.property(configArb, scriptArb, (config, script) => {
        const a = run(config, script);
        const b = run(config, script);
        expect(b.states.map((s) => canonicalize(s))).toEqual(a.states.map((s) => canonicalize(s)));
        expect(b.room.log).toEqual(a.room.log);

        // Replay: fold only what the log recorded, as the runtime's replay does.
        const parsed = sealedBid.configSchema.parse(config);
        let state = sealedBid.setup(parsed, {
          seats: sealedBid.seats(parsed),
          seed: 'ff'.repeat(32),
          now: 1_000,
        });
        for (const e of a.room.log) {
          if (e.kind === 'tick') {
            const t = sealedBid.tick(state, e.now, e.seq);
            expect(t).not.toBeNull();
            state = t!.state;
          } else {
            const r = sealedBid.apply(state, { seat: e.actor, action: e.action!, now: e.now, seq: e.seq });
            expect(r.ok).toBe(true);
            if (r.ok) state = r.state;
          }
        }
        expect(canonicalize(state)).toBe(canonicalize(a.room.state));
      }),
      { numRuns: 150 },
    );
  });
});
