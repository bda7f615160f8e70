// Debate protocol throughput (no peer exists for this protocol; figures only).
//   fold: a full 5-debater debate (3 rounds + final, every debater submitting, verdicts, votes,
//         ballots, cards, stances) replayed from its log, as the runtime refolds a room.
//   submit: one `apply` of a submission — unsigned, raw Ed25519, SSHSIG by key, SSHSIG by CA
//           certificate — each on a distinct payload, so no signature is verified twice.
//   elo: folding 5-entrant matches (2 tags each) into global + per-tag tables.

import {
  ed25519,
  formatSshPublicKey,
  signCertificate,
  signSshsig,
  toBase64,
  utf8Encode,
} from '../packages/core/src/index.ts';
import {
  type DebateAction,
  type DebateState,
  debate,
  foldRatings,
  legalFor,
  type RatingMatch,
  type SubmitAction,
  submissionBytes,
  submissionSha256,
} from '../packages/protocols/debate/rules/index.ts';
import type { BenchRow } from './types.ts';

const AREA = 'debate';
const SEED = 'ab'.repeat(32);
const user = ed25519.keyPairFromSeed(new Uint8Array(32).fill(5));
const ca = ed25519.keyPairFromSeed(new Uint8Array(32).fill(6));
const CONFIG = debate.configSchema.parse({
  topic: 'bench',
  tags: ['a', 'b'],
  max_rounds: 3,
  tie_rules: { continue: 'continue' },
  trust: {
    keys: { anon_1: [formatSshPublicKey(user.publicKey)] },
    ca_keys: [formatSshPublicKey(ca.publicKey)],
  },
});
const DEBATERS = ['anon_1', 'anon_2', 'anon_3', 'anon_4', 'anon_5'];

type Entry =
  | { kind: 'act'; seat: string; action: DebateAction; now: number; seq: number }
  | { kind: 'tick'; now: number; seq: number };

function submitFor(state: DebateState, seat: string, tag: string): SubmitAction {
  const l = legalFor(state, seat).actions.find((a) => a.type === 'submit');
  if (l?.type !== 'submit') throw new Error(`${seat} cannot submit`);
  return {
    type: 'submit',
    room_id: 'room_bench',
    round_id: l.round_id,
    author_id: seat,
    phase: l.phase,
    deadline_unix: l.deadline_unix,
    content: `${tag}: ${'an argument about the motion. '.repeat(40)}`,
    claims: [1, 2, 3].map((i) => ({
      id: `c${i}`,
      text: `claim ${i} of ${tag}`,
      support: [{ kind: 'citation' as const, ref: `https://example.org/${i}` }],
      confidence: 60 + i * 10,
    })),
    citations: [{ url: 'https://example.org/1' }, { url: 'https://example.org/2', title: 'two' }],
    client_nonce: tag,
  };
}

/** Play one full debate and return its log. */
function playDebate(): Entry[] {
  let state = debate.setup(CONFIG, { seats: debate.seats(CONFIG), seed: SEED, now: 0 });
  const log: Entry[] = [];
  let seq = 1;
  const act = (seat: string, action: DebateAction, now: number) => {
    const r = debate.apply(state, { seat, action, now, seq });
    if (!r.ok) throw new Error(`${seat} ${action.type}: ${r.error.code}`);
    state = r.state;
    log.push({ kind: 'act', seat, action, now, seq: seq++ });
  };
  const tick = () => {
    const now = debate.deadline(state)!;
    state = debate.tick(state, now, seq)!.state;
    log.push({ kind: 'tick', now, seq: seq++ });
    return now;
  };
  let now = tick(); // research → submit
  for (;;) {
    for (const s of DEBATERS) act(s, submitFor(state, s, `${s}-${state.round}`), ++now);
    now = tick(); // → verify
    const round = state.rounds[state.round - 1]!;
    for (const s of DEBATERS) {
      const sub = round.slots[s]!.submission!;
      act(
        'fact_checker',
        {
          type: 'verdict',
          author: s,
          canonical_sha256: sub.canonical_sha256,
          claims: sub.payload.claims.map((c) => ({ claim_id: c.id, verdict: 'true', reason: 'checked' })),
        },
        ++now,
      );
    }
    now = tick(); // publish
    if (state.phase === 'final_vote') break;
    if (state.phase === 'published') {
      for (const s of DEBATERS) act(s, { type: 'vote_continue', choice: 'continue' }, ++now);
      now = tick();
      if ((state.phase as string) === 'research') now = tick();
    }
  }
  for (const j of ['judge_1', 'judge_2', 'judge_3']) {
    act(
      j,
      {
        type: 'score',
        cards: DEBATERS.map((d, i) => ({ debater: d, e: 50 + i, r: 60, c: 70, v: 80, y: 40 + i })),
      },
      ++now,
    );
  }
  for (const v of ['viewer_1', 'viewer_2', 'viewer_3', 'viewer_4', 'viewer_5']) {
    act(
      v,
      { type: 'stance', when: 'after', stances: DEBATERS.map((d) => ({ debater: d, value: 50 })) },
      ++now,
    );
    act(v, { type: 'final_vote', approval: ['anon_1', 'anon_2'], ranking: ['anon_2', 'anon_1'] }, ++now);
  }
  while (!debate.isOver(state)) tick();
  return log;
}

function refold(log: readonly Entry[]): DebateState {
  let state = debate.setup(CONFIG, { seats: debate.seats(CONFIG), seed: SEED, now: 0 });
  for (const e of log) {
    if (e.kind === 'tick') state = debate.tick(state, e.now, e.seq)!.state;
    else {
      const r = debate.apply(state, { seat: e.seat, action: e.action, now: e.now, seq: e.seq });
      if (!r.ok) throw new Error('refold rejected');
      state = r.state;
    }
  }
  return state;
}

function timeIt(n: number, fn: (i: number) => void): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return performance.now() - t0;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const log = playDebate();
  refold(log); // warm-up
  const folds = 40;
  const ms = timeIt(folds, () => refold(log));
  rows.push({
    area: AREA,
    name: `refold a full debate (${log.length} entries)`,
    value: (folds * 1000) / ms,
    unit: 'debates/s',
  });
  rows.push({
    area: AREA,
    name: 'refold throughput',
    value: (folds * log.length * 1000) / ms,
    unit: 'entries/s',
  });

  // A state in submit_1, and N distinct submissions per signing mode.
  let s = debate.setup(CONFIG, { seats: debate.seats(CONFIG), seed: SEED, now: 0 });
  s = debate.tick(s, debate.deadline(s)!, 1)!.state;
  const cert = signCertificate({
    caSeed: ca.seed,
    publicKey: user.publicKey,
    keyId: 'bench',
    principals: ['anon_2@room_bench'],
    validAfter: 'always',
    validBefore: 'forever',
  }).line;
  const N = 300;
  const modes: [string, (a: SubmitAction) => SubmitAction, string][] = [
    ['unsigned (server)', (a) => a, 'anon_1'],
    [
      'raw Ed25519',
      (a) => ({
        ...a,
        signature_kind: 'ed25519',
        signature_b64: toBase64(ed25519.sign(user.seed, submissionBytes(a))),
      }),
      'anon_1',
    ],
    [
      'SSHSIG by key',
      (a) => ({
        ...a,
        signature_kind: 'ssh',
        signature_b64: toBase64(
          utf8Encode(signSshsig({ seed: user.seed, namespace: 'db8', message: submissionBytes(a) })),
        ),
      }),
      'anon_1',
    ],
    [
      'SSHSIG by CA certificate',
      (a) => ({
        ...a,
        signature_kind: 'ssh',
        signature_b64: toBase64(
          utf8Encode(
            signSshsig({ seed: user.seed, namespace: 'db8', message: submissionBytes(a), certificate: cert }),
          ),
        ),
      }),
      'anon_2',
    ],
  ];
  for (const [name, sign, seat] of modes) {
    const actions = Array.from({ length: N }, (_, i) => sign(submitFor(s, seat, `${name}-${i}`)));
    const t = timeIt(N, (i) => {
      const r = debate.apply(s, { seat, action: actions[i]!, now: 10, seq: 2 });
      if (!r.ok) throw new Error(`${name}: ${r.error.code}`);
    });
    rows.push({ area: AREA, name: `apply submit, ${name}`, value: (t * 1000) / N, unit: 'µs/op' });
  }
  rows.push({
    area: AREA,
    name: 'canonical sha256 of a submission',
    value: (timeIt(N, (i) => submissionSha256(submitFor(s, 'anon_3', `h${i}`))) * 1000) / N,
    unit: 'µs/op',
  });

  const ids = Array.from({ length: 200 }, (_, i) => `agent-${i}`);
  const matches: RatingMatch[] = Array.from({ length: 5000 }, (_, m) => ({
    id: `room-${m}`,
    tags: [`t${m % 7}`, `t${(m * 3) % 7}`],
    entrants: [0, 1, 2, 3, 4].map((k) => ({ identity: ids[(m * 7 + k * 31) % ids.length]!, place: k + 1 })),
  }));
  foldRatings(matches.slice(0, 500)); // warm-up
  const eloMs = Math.min(...[0, 1, 2].map(() => timeIt(1, () => foldRatings(matches))));
  rows.push({
    area: AREA,
    name: 'Elo fold, 5-entrant matches, global + 2 tags',
    value: (matches.length * 1000) / eloMs,
    unit: 'matches/s',
  });
  return rows;
}
