// The steps of the swarm fuzz (issue 23): what fast-check draws — questions, room inputs, ticks,
// garbage, replays, REST writes, clock jumps — each mostly well-formed, sometimes hostile. Turned
// into messages by swarm-fuzz.ts.
import { ed25519 } from '@db8/core';
import fc from 'fast-check';
import { didKeyFromPublicKey } from '../../rules/index.ts';

export const SCOPES = ['private-to-swarm', 'federation-local', 'cross-federation', 'global'] as const;
export type Scope = (typeof SCOPES)[number];
const TYPES = [
  'swarm/room-join',
  'swarm/room-presence',
  'swarm/room-message',
  'swarm/room-verdict',
  'swarm/room-delegate',
  'swarm/room-takeover',
  'swarm/room-policy',
  'swarm/question-summary',
  'swarm/question-close',
] as const;
const DAY = 86_400_000;

export const KEYS = [31, 32, 33, 34].map((n) => {
  const seed = new Uint8Array(32).fill(n);
  return { seed, id: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
});

/** Hostile values for an id or label field. */
export const HOSTILE_IDS = [
  'a\r\nQUIT :x',
  'x\u0000',
  '\u0085',
  'x\u2028y',
  '',
  'z'.repeat(300),
  '😀',
  'evil:did:key:z6Mk',
];
export const TEXTS = fc.oneof(
  fc.constant('What is the best way to rotate a key?'),
  fc.constant(`${'a'.repeat(199)}😀 cut here`),
  fc.constant('LONG'),
  fc.constant('\u0000\r\nPRIVMSG #x :hi'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const TTLS = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(2, 60, 3600, 604_800) },
  fc.constantFrom(1, 2_592_000, 1e300, 0, 1.5, -5),
);
/** A created-at: an offset from the stream's clock, or a fixed hostile string. */
const TIMES = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(0, -1000, -600_000, -8 * DAY, 60_000, 3_600_000).map((off) => ({ off })),
  },
  fc.constantFrom(
    { fixed: 'leap' },
    { fixed: '2016-12-31T23:59:60Z' },
    { fixed: '0001-01-01T00:00:00Z' },
    { fixed: '2030-02-30T00:00:00Z' },
    { fixed: '2026-01-01 00:00:00Z' },
    { fixed: 'yesterday' },
    { fixed: '9999-12-31T23:59:59Z' },
  ),
);
export type TimePick = { off: number } | { fixed: string };

/** Mostly one of the four well-formed question ids of a run, sometimes a hostile one. */
const QIDS = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.nat(3) },
  fc.nat(5),
);

const MUTATIONS = fc.constantFrom(
  'none',
  'none',
  'none',
  'none',
  'drop',
  'hostile-id',
  'extra',
  'forge',
  'wrong-type',
);

export const StepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('question' as const),
      /** A clean step is well-formed (its hostile picks ignored), so rooms open and fill. */
      clean: fc.constantFrom(true, true, false),
      signer: fc.nat(KEYS.length - 1),
      qid: QIDS,
      text: TEXTS,
      ttl: TTLS,
      created: TIMES,
      scope: fc.constantFrom(...SCOPES),
      misrouted: fc.constantFrom(false, false, false, true),
      profile: fc.constantFrom(undefined, 'none', 'mediated-only', 'direct-live-allowed'),
      tag: fc.constantFrom('t', 't', 't', 'a\r\nb', 'u'),
      mutation: MUTATIONS,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('input' as const),
      clean: fc.constantFrom(true, true, false),
      type: fc.constantFrom(...TYPES),
      signer: fc.nat(KEYS.length - 1),
      qid: QIDS,
      created: TIMES,
      text: TEXTS,
      pick: fc.nat(20),
      mutation: MUTATIONS,
      wrongSubject: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), qid: QIDS }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), back: fc.nat(5) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('garbage' as const),
      body: fc.oneof(
        fc.string({ maxLength: 50 }),
        fc.json(),
        fc.constant('{"a":1,"a":2}'),
        fc.constant('{"s":"\\ud800"}'),
        fc.constant('[1e999]'),
      ),
      where: fc.constantFrom('publish', 'summary', 'close', 'room'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rest' as const),
      node: fc.nat(1),
      qid: QIDS,
      what: fc.constantFrom('ask', 'join', 'answer', 'summary', 'close', 'takeover', 'raw'),
      ttl: TTLS,
      text: TEXTS,
      mutation: MUTATIONS,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(500, 60_000, 3_600_000, 8 * DAY),
    }),
  },
);
export type Step = typeof StepArb extends fc.Arbitrary<infer T> ? T : never;

/** How every run starts: a question (id 0, key 0, 1 h) and a participant (key 1) joining it. */
export const OPENING: Step[] = [
  {
    kind: 'question',
    clean: true,
    signer: 0,
    qid: 0,
    text: 'Q?',
    ttl: 3600,
    created: { off: 0 },
    scope: 'private-to-swarm', // the scope of question id 0, which its inputs travel on
    misrouted: false,
    profile: undefined,
    tag: 't',
    mutation: 'none',
  },
  {
    kind: 'input',
    clean: true,
    type: 'swarm/room-join',
    signer: 1,
    qid: 0,
    created: { off: 0 },
    text: '',
    pick: 0,
    mutation: 'none',
    wrongSubject: false,
  },
];

/** The question ids of one run: safe, hashed (colon), and hostile ones. */
export function questionIds(run: string): string[] {
  const safe = [`f${run}-a`, `f${run}-b`, `question:f${run}:c`, `f${run}-😀`];
  return [...safe, `f${run}\r\nX-Evil: 1`, `f${run}\u0000`];
}
