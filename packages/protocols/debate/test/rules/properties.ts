import { ed25519, toHex, type Viewer } from '@db8/core';
import fc from 'fast-check';
import { type DebateConfigInput, debate, debateSeats, legalFor } from '../../rules/index.ts';
import type { Room } from './harness.ts';

/**
 * Random debate scripts for the property tests: actions from every seat (and a stranger), half
 * of them built from `legal()` so the late phases are reached, plus ticks, at increasing times.
 * Submission text is derived from a `secret` prefix so a second run can change only the secrets.
 */

export const configArb = fc.record({
  topic: fc.constant('t'),
  tags: fc.constant(['x']),
  debaters: fc.integer({ min: 2, max: 4 }),
  judges: fc.integer({ min: 0, max: 2 }),
  viewers: fc.integer({ min: 0, max: 2 }),
  max_rounds: fc.integer({ min: 1, max: 3 }),
  final_voters: fc.constantFrom(
    ['judge', 'viewer'] as const,
    ['debater'] as const,
    ['viewer', 'moderator'] as const,
  ),
  tie_rules: fc.record({ continue: fc.constantFrom('continue' as const, 'end' as const) }),
  timings: fc.record({
    research_ms: fc.constantFrom(0, 40),
    submit_ms: fc.integer({ min: 60, max: 250 }),
    verify_ms: fc.integer({ min: 40, max: 200 }),
    continue_vote_ms: fc.integer({ min: 40, max: 200 }),
    final_submit_ms: fc.integer({ min: 60, max: 250 }),
    final_vote_ms: fc.integer({ min: 60, max: 250 }),
    results_ms: fc.integer({ min: 1, max: 50 }),
    reveal_ms: fc.integer({ min: 1, max: 50 }),
  }),
}) as fc.Arbitrary<DebateConfigInput & { debaters: number; judges: number; viewers: number }>;
export type Config = typeof configArb extends fc.Arbitrary<infer C> ? C : never;

const KINDS = [
  'draft',
  'submit',
  'submit',
  'register_key',
  'verdict',
  'vote_continue',
  'final_vote',
  'score',
  'stance',
  'bind_identity',
] as const;

const dtArb = fc.oneof(
  { weight: 5, arbitrary: fc.nat({ max: 25 }) },
  { weight: 1, arbitrary: fc.nat({ max: 300 }) },
);

export const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('act' as const),
      who: fc.nat({ max: 30 }),
      kind: fc.constantFrom(...KINDS),
      k: fc.nat({ max: 4 }),
      pick: fc.nat({ max: 99 }),
      flag: fc.nat({ max: 9 }),
      dt: dtArb,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('play' as const),
      who: fc.nat({ max: 30 }),
      kind: fc.constantFrom(...KINDS),
      k: fc.nat({ max: 4 }),
      pick: fc.nat({ max: 99 }),
      flag: fc.nat({ max: 9 }),
      dt: dtArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('tick' as const), dt: dtArb }) },
);
export type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;
export type Move = Exclude<Step, { t: 'tick' }>;
export const scriptArb = fc.array(stepArb, { minLength: 20, maxLength: 160 });

const KEYS = [1, 2, 3].map((i) => toHex(ed25519.keyPairFromSeed(new Uint8Array(32).fill(i)).publicKey));

const seatsCache = new WeakMap<Config, string[]>();
export function allSeats(config: Config): string[] {
  let seats = seatsCache.get(config);
  if (!seats) {
    seats = [...debateSeats(debate.configSchema.parse(config)).map((s) => s.id), 'stranger'];
    seatsCache.set(config, seats);
  }
  return seats;
}

export function viewersOf(config: Config): Viewer[] {
  return [
    ...allSeats(config).map((seat) => ({ kind: 'seat', seat }) as const),
    { kind: 'observer' },
    { kind: 'admin' },
  ];
}

/** The seat a step acts for: any seat for `act`; for `play`, one that has a legal move of that kind if any. */
export function seatFor(room: Room, config: Config, step: Move): string {
  const seats = allSeats(config);
  if (step.t === 'act') return seats[step.who % seats.length]!;
  const able = seats.filter((s) => legalFor(room.state, s).actions.some((a) => a.type === step.kind));
  if (able.length > 0) return able[step.who % able.length]!;
  const any = seats.filter((s) => legalFor(room.state, s).actions.length > 0);
  return any.length > 0 ? any[step.who % any.length]! : seats[step.who % seats.length]!;
}

/** Build an action; `secret` is the text prefix of submission content (varied by the privacy test). */
export function actionFor(room: Room, seat: string, step: Move, secret: string): unknown {
  const legal = legalFor(room.state, seat).actions;
  const kind =
    step.t === 'play' && !legal.some((a) => a.type === step.kind)
      ? (legal[step.pick % Math.max(1, legal.length)]?.type ?? step.kind)
      : step.kind;
  const debaters = room.state.config.debaters;
  const deb = (i: number) => `anon_${(i % debaters) + 1}`;
  const round = room.state.round;
  switch (kind) {
    case 'draft':
      return { type: 'draft', content: `D:${secret}:${seat}:r${round}:${step.k}` };
    case 'submit': {
      const l = legal.find((a) => a.type === 'submit');
      const published = room.state.rounds.filter((r) => r.published_at !== null);
      const target = published[step.pick % Math.max(1, published.length)];
      const author = deb(step.pick);
      const claimIds = target?.slots[author]?.submission?.payload.claims.map((c) => c.id) ?? [];
      const concessions =
        target && claimIds.length > 0 && step.flag < 4
          ? [{ round: target.index, author, claim_id: claimIds[step.k % claimIds.length]! }]
          : undefined;
      return {
        type: 'submit',
        room_id: 'room_p',
        round_id: l?.type === 'submit' && step.flag !== 9 ? l.round_id : 'wrong',
        author_id: step.flag === 8 ? deb(step.pick + 1) : seat,
        phase: l?.type === 'submit' ? l.phase : 'OPENING',
        deadline_unix: l?.type === 'submit' ? l.deadline_unix : 0,
        content: `S:${secret}:${seat}:r${round}:${step.k}`,
        claims: Array.from({ length: 1 + (step.k % 2) }, (_, i) => ({
          id: `c${i}`,
          text: `claim ${i} by ${secret}:${seat}:r${round}:${step.k}`,
          support: [{ kind: 'logic', ref: 'because' }],
          confidence: (step.pick * 7 + i * 13) % 101,
        })),
        citations: [{ url: 'https://a.example/1' }, { url: 'https://b.example/2', title: 'two' }],
        ...(concessions ? { concessions } : {}),
        client_nonce: `n${step.k}`,
      };
    }
    case 'register_key':
      return { type: 'register_key', public_key: KEYS[step.k % KEYS.length] };
    case 'verdict': {
      const options = legal.filter((a) => a.type === 'verdict');
      const v = options[step.pick % Math.max(1, options.length)];
      const verdicts = ['true', 'true', 'true', 'false', 'unclear', 'needs_work'] as const;
      if (v?.type !== 'verdict') {
        return {
          type: 'verdict',
          author: deb(step.pick),
          canonical_sha256: 'a'.repeat(64),
          claims: [{ claim_id: 'c0', verdict: 'true', reason: 'r' }],
        };
      }
      return {
        type: 'verdict',
        author: v.author,
        canonical_sha256: step.flag === 9 ? 'b'.repeat(64) : v.canonical_sha256,
        claims: v.claim_ids.map((claim_id, i) => ({
          claim_id,
          verdict: verdicts[(step.flag + i) % verdicts.length],
          reason: 'checked',
        })),
      };
    }
    case 'vote_continue':
      return { type: 'vote_continue', choice: step.flag % 2 === 0 ? 'continue' : 'end' };
    case 'final_vote': {
      const approval = [...new Set([deb(step.pick), deb(step.pick + step.k)])];
      return step.flag < 5
        ? {
            type: 'final_vote',
            approval,
            ranking: [deb(step.pick + 1), deb(step.pick + 2)].filter((s, i, a) => a.indexOf(s) === i),
          }
        : { type: 'final_vote', approval };
    }
    case 'score':
      return {
        type: 'score',
        cards: [...new Set([deb(step.pick), deb(step.pick + step.k)])].map((debater, i) => ({
          debater,
          e: (step.pick + i * 11) % 101,
          r: (step.flag * 10) % 101,
          c: 50,
          v: (step.k * 25) % 101,
          y: (step.pick * 3) % 101,
        })),
      };
    case 'stance':
      return {
        type: 'stance',
        when: step.flag % 2 === 0 ? 'before' : 'after',
        stances: [{ debater: deb(step.pick), value: step.pick }],
      };
    case 'bind_identity':
      return { type: 'bind_identity', seat: deb(step.pick), identity: `id${step.k}` };
  }
}

/** A punctual watcher: tick at each deadline that has passed by `now` (at most 20 in a row). */
export function catchUp(room: Room, now: number): void {
  for (let i = 0; i < 20; i++) {
    const d = debate.deadline(room.state);
    if (d === null || d > now) return;
    room.tick(d);
  }
  throw new Error('a deadline stayed due after 20 ticks');
}
