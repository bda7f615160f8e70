import { canonicalize, type Viewer } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chipsBought,
  poker,
  replayTable,
  TABLE_REJECTION_CODES,
  type TableState,
  TableStateSchema,
  type TableView,
  TableViewSchema,
  tableChips,
} from '../../../rules/index.ts';
import { Table } from './harness.ts';

/**
 * Random scripts at random tables: legal moves by the seat to act (to reach late streets and many
 * hands), junk from anyone (wrong seat, wrong kind, junk tokens), sitting in and out, house
 * top-ups and stops, and ticks at increasing times. After every step: chips conserved, one token
 * holder at most, views parse and leak no hidden card, and only typed codes come back.
 */

const configArb = fc.record({
  seats: fc.integer({ min: 2, max: 10 }),
  smallBlind: fc.integer({ min: 1, max: 20 }),
  bbExtra: fc.integer({ min: 0, max: 20 }),
  ante: fc.constantFrom(0, 0, 1, 5),
  startingStack: fc.integer({ min: 1, max: 400 }),
  actionTimeoutMs: fc.integer({ min: 100, max: 2000 }),
  handIntervalMs: fc.integer({ min: 1, max: 500 }),
  maxHands: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  maxConsecutiveTimeouts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
});

const stepArb = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('play' as const),
      r: fc.nat(),
      amt: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('junk' as const),
      seat: fc.integer({ min: -1, max: 10 }),
      kind: fc.constantFrom('fold', 'check', 'call', 'raiseTo', 'sitIn', 'sitOut', 'topUp', 'stop'),
      amount: fc.integer({ min: 1, max: 2000 }),
      token: fc.constantFrom('none', 'legal', 'junk'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('sit' as const), seat: fc.nat({ max: 9 }), out: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('topUp' as const),
      seat: fc.nat({ max: 9 }),
      amount: fc.integer({ min: 1, max: 500 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('tick' as const), dt: fc.nat({ max: 3000 }) }) },
  { weight: 6, arbitrary: fc.constant({ t: 'due' as const }) },
);
type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

/** Every card a viewer must not see now: unshown hole cards of other seats, and the undealt deck. */
export function hiddenCards(state: TableState, viewer: Viewer): string[] {
  const h = state.hand;
  if (!h || viewer.kind === 'admin') return [];
  const e = h.engine;
  const own = viewer.kind === 'seat' ? Number(viewer.seat.replace('seat_', '')) : -1;
  const out: string[] = [];
  h.seats.forEach((t, k) => {
    if (t !== own && e.shows[k] !== 'shown') out.push(...e.hole[k]!);
  });
  const deck = e.config.deck ?? [];
  out.push(...deck.slice(2 * h.seats.length + e.board.length));
  return out;
}

/** A view leaks when any hidden card, the live salt, or the seed appears outside finished hands. */
export function leaks(state: TableState, viewer: Viewer, view: TableView): string[] {
  const { recent, ...live } = view;
  const text = JSON.stringify(live);
  const found = hiddenCards(state, viewer).filter((c) => text.includes(`"${c}"`));
  if (state.hand && text.includes(state.hand.salt)) found.push('salt');
  if (text.includes(state.seed) || recent.some((h) => h.salt === state.seed)) found.push('seed');
  return found;
}

const VIEWERS: Viewer[] = [
  { kind: 'observer' },
  { kind: 'seat', seat: 'seat_0' },
  { kind: 'seat', seat: 'seat_1' },
  { kind: 'seat', seat: 'house' },
];

type Cfg = typeof configArb extends fc.Arbitrary<infer C> ? C : never;

function run(cfg: Cfg, steps: Step[], checks = true) {
  const config = {
    seats: cfg.seats,
    smallBlind: cfg.smallBlind,
    bigBlind: cfg.smallBlind + cfg.bbExtra,
    ante: cfg.ante,
    startingStack: cfg.startingStack,
    actionTimeoutMs: cfg.actionTimeoutMs,
    handIntervalMs: cfg.handIntervalMs,
    maxHands: cfg.maxHands,
    maxConsecutiveTimeouts: cfg.maxConsecutiveTimeouts,
  };
  const t = new Table(config);
  for (let i = 0; i < cfg.seats; i += 1) if (i % 4 !== 3) t.act(`seat_${i}`, { kind: 'sitIn' });
  let refused = 0;
  for (const step of steps) {
    let res: { ok: boolean; error?: { code: string } } | null = null;
    if (step.t === 'play') {
      const seat = t.toAct();
      if (seat === null) res = t.tickDue() ? { ok: true } : null;
      else {
        const { actions, turnToken } = t.legal(seat);
        const a = actions[step.r % actions.length]!;
        const action =
          a.kind === 'raiseTo'
            ? { kind: 'raiseTo', amount: a.min + Math.floor(step.amt * (a.max - a.min)), turnToken }
            : { kind: a.kind, turnToken };
        res = t.act(`seat_${seat}`, action);
        if (checks) expect(res.ok, JSON.stringify(res)).toBe(true);
      }
    } else if (step.t === 'junk') {
      const seat = step.seat < 0 ? 'house' : `seat_${step.seat}`;
      const action: Record<string, unknown> = { kind: step.kind };
      if (step.kind === 'raiseTo' || step.kind === 'topUp') action.amount = step.amount;
      if (step.kind === 'topUp') action.seat = step.amount % 10;
      if (['fold', 'check', 'call', 'raiseTo'].includes(step.kind) && step.token !== 'none') {
        action.turnToken = step.token === 'legal' ? (poker.legal(t.state, seat).turnToken ?? 'x') : 'junk';
      }
      if (step.kind === 'stop' && seat === 'house' && step.amount % 7 !== 0) continue; // stop rarely
      res = t.act(seat, action);
    } else if (step.t === 'sit') {
      res = t.act(`seat_${step.seat}`, { kind: step.out ? 'sitOut' : 'sitIn' });
    } else if (step.t === 'topUp') {
      res = t.act('house', { kind: 'topUp', seat: step.seat, amount: step.amount });
    } else if (step.t === 'tick') {
      t.now += step.dt;
      res = t.tick() ? { ok: true } : null;
    } else {
      res = t.tickDue() ? { ok: true } : null;
    }
    if (res && !res.ok) {
      refused++;
      expect(TABLE_REJECTION_CODES as readonly string[]).toContain(res.error!.code);
    }
    if (!checks) continue;
    const s = t.state;
    expect(tableChips(s)).toBe(chipsBought(s));
    const holders = Array.from({ length: cfg.seats }, (_, i) => poker.legal(s, `seat_${i}`).turnToken).filter(
      Boolean,
    );
    expect(holders.length).toBe(s.hand && s.hand.engine.phase === 'betting' ? 1 : 0);
    expect(poker.isOver(s)).toBe(poker.result(s) !== null);
    if (poker.isOver(s)) expect(poker.deadline(s)).toBeNull();
    const d = poker.deadline(s);
    if (d !== null) {
      // One tick settles each instant.
      const once = poker.tick(s, Math.max(d, t.now), 0);
      if (once) expect(poker.tick(once.state, Math.max(d, t.now), 0)).toBeNull();
    }
    for (const viewer of VIEWERS) {
      const v = poker.view(s, viewer);
      expect(leaks(s, viewer, v)).toEqual([]);
    }
  }
  return { t, refused };
}

describe('poker table: properties', () => {
  it('never throws; chips conserved; no leaks; one token holder; typed refusals only', () => {
    let hands = 0;
    let showdowns = 0;
    fc.assert(
      fc.property(configArb, fc.array(stepArb, { minLength: 40, maxLength: 300 }), (cfg, steps) => {
        const { t } = run(cfg, steps);
        hands += t.state.handsStarted;
        showdowns += t.state.recent.filter((h) => h.shown.length > 1).length;
        expect(TableStateSchema.safeParse(t.state).success).toBe(true);
        for (const viewer of VIEWERS)
          expect(TableViewSchema.safeParse(poker.view(t.state, viewer)).success).toBe(true);
      }),
      { numRuns: 100 },
    );
    // The scripts must reach the game, not just bounce off it.
    expect(hands).toBeGreaterThan(300);
    expect(showdowns).toBeGreaterThan(30);
  });

  it('is deterministic, and a refold of the log reproduces the state (chips checked per entry)', () => {
    fc.assert(
      fc.property(configArb, fc.array(stepArb, { maxLength: 200 }), (cfg, steps) => {
        const a = run(cfg, steps, false).t;
        const b = run(cfg, steps, false).t;
        expect(canonicalize(a.state)).toBe(canonicalize(b.state));
        expect(canonicalize(a.log)).toBe(canonicalize(b.log));
        const r = replayTable(a.log, 'a1'.repeat(32));
        expect(r.problems).toEqual([]);
        expect(canonicalize(r.state)).toBe(canonicalize(a.state));
      }),
      { numRuns: 60 },
    );
  });

  it('the leak check catches a planted leak (an exposed hole card, the salt)', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    const viewer: Viewer = { kind: 'seat', seat: 'seat_0' };
    const v = t.view(viewer);
    expect(leaks(t.state, viewer, v)).toEqual([]);
    const other = t.state.hand!.engine.hole[0]!; // engine seat 0 is table seat 1
    const planted = { ...v, seats: v.seats.map((s) => (s.seat === 1 ? { ...s, hole: other } : s)) };
    expect(leaks(t.state, viewer, planted)).toEqual(other);
    const salted = { ...v, hand: { ...v.hand!, commitment: t.state.hand!.salt } };
    expect(leaks(t.state, viewer, salted)).toEqual(['salt']);
    // The observer never sees any hole card before showdown.
    expect(
      t
        .view({ kind: 'observer' })
        .seats.flatMap((s) => s.hole ?? [])
        .every((c) => c === '??'),
    ).toBe(true);
  });
});
