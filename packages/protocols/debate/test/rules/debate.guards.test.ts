import { ed25519, toBase64, toHex } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  DebateConfigSchema,
  debate,
  debateSeats,
  REJECTION_CODES,
  submissionBytes,
  verificationOutcome,
} from '../../rules/index.ts';
import { baseConfig, DEBATERS5, Room, roomAtContinueVote, submitAll, verifyAll } from './harness.ts';

/** Every guard of the FSM and every rejection code, each leaving the room unchanged. */

const provoked = new Set<string>();
const expectCode = (code: string, got: string) => {
  expect(got).toBe(code);
  provoked.add(code);
};

function atSubmit(config = baseConfig): Room {
  const room = new Room(config);
  room.advance();
  expect(room.state.phase).toBe('submit');
  return room;
}

describe('debate: config', () => {
  it('applies the seed defaults and seats anon_1…anon_N plus the roles', () => {
    const c = DebateConfigSchema.parse({ topic: 't' });
    expect(c.debaters).toBe(5);
    expect(c.scoring.weights).toEqual({ e: 35, r: 30, c: 20, v: 5, y: 10 });
    expect(c.scoring.alpha).toBe(10);
    expect(c.caps).toEqual({ content_max: 4000, claims_max: 5, citations_min: 2 });
    expect(c.timings.submit_ms).toBe(300_000);
    expect(debateSeats(c).map((s) => s.id)).toEqual([
      'anon_1',
      'anon_2',
      'anon_3',
      'anon_4',
      'anon_5',
      'moderator',
      'fact_checker',
      'judge_1',
      'judge_2',
      'judge_3',
      'viewer_1',
      'viewer_2',
      'viewer_3',
      'viewer_4',
      'viewer_5',
    ]);
  });

  it('accepts the edges of every range and refuses just outside', () => {
    const ok = (patch: object) => DebateConfigSchema.safeParse({ topic: 't', ...patch }).success;
    expect(ok({ debaters: 2 })).toBe(true);
    expect(ok({ debaters: 12 })).toBe(true);
    expect(ok({ debaters: 1 })).toBe(false);
    expect(ok({ debaters: 13 })).toBe(false);
    expect(ok({ max_rounds: 0 })).toBe(false);
    expect(ok({ caps: { content_max: 4000 } })).toBe(true);
    expect(ok({ caps: { content_max: 4001 } })).toBe(false);
    expect(ok({ caps: { claims_max: 6 } })).toBe(false);
    expect(ok({ caps: { citations_min: 1 } })).toBe(false);
    expect(ok({ timings: { research_ms: 0 } })).toBe(true);
    expect(ok({ timings: { submit_ms: 0 } })).toBe(false);
    expect(ok({ scoring: { weights: { e: 20, r: 20, c: 20, v: 20, y: 20 } } })).toBe(true);
    expect(ok({ scoring: { weights: { e: 20, r: 20, c: 20, v: 20, y: 21 } } })).toBe(false);
    expect(ok({ final_voters: [] })).toBe(false);
    expect(ok({ final_voters: ['judge', 'judge'] })).toBe(false);
    expect(ok({ extra: 1 })).toBe(false);
    expect(ok({ timings: { extra: 1 } })).toBe(false);
    expect(ok({ tags: ['Not A Tag'] })).toBe(false);
    const key = toHex(ed25519.keyPairFromSeed(new Uint8Array(32).fill(1)).publicKey);
    expect(ok({ trust: { keys: { anon_1: [key] } } })).toBe(true);
    expect(ok({ trust: { keys: { anon_6: [key] } } })).toBe(false);
    expect(ok({ trust: { keys: { anon_1: ['ssh-rsa AAAA'] } } })).toBe(false);
  });
});

describe('debate: the FSM guards', () => {
  it('research → submit only at the research deadline; no writes during research', () => {
    const room = new Room();
    expectCode('WRONG_PHASE', room.refuse('anon_1', { type: 'draft', content: 'x' }, 10));
    expect(room.tick(999)).toBeNull();
    expect(room.tick(1_000)).not.toBeNull();
    expect(room.state.phase).toBe('submit');
    // One tick settles each instant.
    expect(room.tick(1_000)).toBeNull();
  });

  it('submit → verify only when now ≥ submit_deadline; input at the deadline is refused', () => {
    const room = atSubmit();
    const a = room.submission('anon_1');
    expect(room.tick(10_999)).toBeNull();
    expectCode('PHASE_CLOSED', room.refuse('anon_1', a, 11_000));
    room.must('anon_1', a, 10_999);
    expect(room.tick(11_000)).not.toBeNull();
    expect(room.state.phase).toBe('verify');
    expect(room.tick(11_000)).toBeNull();
  });

  it('verify → published only when every submission is verified, rejected or forfeit', () => {
    const room = atSubmit();
    submitAll(room, ['anon_1', 'anon_2'], 2_000);
    room.advance();
    room.must('fact_checker', room.verdictFor('anon_1', 'true'), 12_000);
    expect(debate.deadline(room.state)).toBe(16_000);
    expect(room.tick(15_999)).toBeNull();
    room.must('fact_checker', room.verdictFor('anon_2', 'false'), 12_500);
    expect(debate.deadline(room.state)).toBe(12_500);
    const pub = room.tick(12_500)!;
    expect(pub.reveal).toHaveLength(4);
    expect(room.state.rounds[0]?.slots.anon_2?.status).toBe('rejected');
  });

  it('a round where everyone forfeits skips verify and publishes nothing at the deadline', () => {
    const room = atSubmit();
    const t = room.tick(11_000)!;
    expect(t.reveal).toEqual([]);
    expect(t.milestone).toBe('round-1-published');
    expect(room.state.phase).toBe('published');
    expect(room.state.chain).toBe('0'.repeat(64));
    expect(room.state.history.slice(-2).map((h) => h.phase)).toEqual(['verify', 'published']);
  });

  it('the verify bound settles unchecked submissions by verification.on_timeout', () => {
    const room = atSubmit({ ...baseConfig, verification: { on_timeout: 'rejected' } });
    submitAll(room, ['anon_1'], 2_000);
    room.advance();
    room.tick(16_000);
    expect(room.state.rounds[0]?.slots.anon_1?.verdict).toMatchObject({ by: 'timeout', outcome: 'rejected' });
    expect(room.state.phase).toBe('published');
  });

  it('continue on a strict majority; a tie follows tie_rules.continue', () => {
    const vote = (room: Room, choices: string[]) => {
      for (const [i, choice] of choices.entries()) {
        room.must(`anon_${i + 1}`, { type: 'vote_continue', choice }, 13_000 + i);
      }
    };

    const yes = roomAtContinueVote();
    vote(yes, ['continue', 'continue', 'end']);
    yes.advance();
    expect(yes.state.phase).toBe('research');

    const no = roomAtContinueVote();
    vote(no, ['continue', 'end', 'end']);
    no.advance();
    expect(no.state.phase).toBe('final_submit');

    const tieEnd = roomAtContinueVote();
    vote(tieEnd, ['continue', 'end']);
    tieEnd.advance();
    expect(tieEnd.state.rounds[0]?.continue_vote?.tally?.by).toBe('tie_rule');
    expect(tieEnd.state.phase).toBe('final_submit');

    // No votes at all is a 0–0 tie; with tie_rules.continue = continue the debate goes on.
    const tieGo = roomAtContinueVote({ ...baseConfig, tie_rules: { continue: 'continue' } });
    expect(debate.deadline(tieGo.state)).toBe(tieGo.state.rounds[0]!.continue_vote!.closes_at);
    tieGo.advance();
    expect(tieGo.state.phase).toBe('research');
    expect(tieGo.state.rounds[0]?.continue_vote?.tally).toMatchObject({
      continue: 0,
      end: 0,
      outcome: 'continue',
    });
  });

  it('final after max rounds, with no continue vote; research_ms 0 skips research', () => {
    const room = new Room({
      ...baseConfig,
      max_rounds: 1,
      timings: { ...baseConfig.timings, research_ms: 0 },
    });
    expect(room.state.phase).toBe('submit');
    expect(room.state.rounds[0]?.research_at).toBeNull();
    room.advance(); // everyone forfeits: publish at once, then final_submit
    expect(room.state.phase).toBe('final_submit');
    expect(room.state.rounds[0]?.continue_vote).toBeNull();
    expectCode('WRONG_PHASE', room.refuse('anon_1', { type: 'vote_continue', choice: 'end' }, 11_000));
  });

  it('placement by score when the config says so', () => {
    const room = roomAtContinueVote({ ...baseConfig, max_rounds: 1, placement: 'score' });
    expect(room.state.phase).toBe('final_submit');
    room.advance(); // the final round: all forfeit
    expect(room.state.phase).toBe('final_vote');
    room.must(
      'judge_1',
      { type: 'score', cards: [{ debater: 'anon_3', e: 90, r: 90, c: 90, v: 90, y: 90 }] },
      room.state.phase_at + 1,
    );
    room.must('judge_1', { type: 'final_vote', approval: ['anon_1'] }, room.state.phase_at + 2);
    room.advance();
    expect(room.state.results?.placements[0]).toMatchObject({ seat: 'anon_3', place: 1, total: 90 });
    // anon_1 has an approval; everyone else is level on every key and shares a place.
    expect(room.state.results?.placements.map((p) => p.place)).toEqual([1, 2, 3, 3, 3]);
  });
});

describe('debate: verification rule', () => {
  const v = (...vs: ('true' | 'false' | 'unclear' | 'needs_work')[]) =>
    verificationOutcome(vs.map((verdict, i) => ({ claim_id: `c${i}`, verdict, reason: 'r' })));
  it('rejects on any false claim, or when more than half need work; unclear never rejects', () => {
    expect(v('true', 'true')).toBe('verified');
    expect(v('true', 'false')).toBe('rejected');
    expect(v('needs_work', 'true')).toBe('verified'); // exactly half
    expect(v('needs_work', 'needs_work', 'true')).toBe('rejected');
    expect(v('unclear', 'unclear', 'unclear')).toBe('verified');
  });
});

describe('debate: every rejection code', () => {
  it('seats and roles', () => {
    const room = atSubmit();
    expectCode('UNKNOWN_SEAT', room.refuse('anon_6', room.submission('anon_1'), 2_000));
    expectCode('UNKNOWN_SEAT', room.refuse('stranger', { type: 'draft', content: '' }, 2_000));
    expectCode('WRONG_ROLE', room.refuse('viewer_1', room.submission('anon_1'), 2_000));
    expectCode(
      'WRONG_ROLE',
      room.refuse('anon_1', { type: 'bind_identity', seat: 'anon_1', identity: 'me' }, 2_000),
    );
    expectCode('WRONG_ROLE', room.refuse('anon_1', { type: 'final_vote', approval: ['anon_2'] }, 2_000));
    expectCode(
      'UNKNOWN_SEAT',
      room.refuse('moderator', { type: 'bind_identity', seat: 'judge_1', identity: 'x' }, 2_000),
    );
  });

  it('submission binding and caps', () => {
    const room = atSubmit({
      ...baseConfig,
      room_id: 'room_abc',
      caps: { content_max: 20, claims_max: 1, citations_min: 3 },
    });
    const base = () => ({
      ...room.submission('anon_1', {
        content: 'short',
        citations: [{ url: 'https://a.example' }, { url: 'https://b.example' }, { url: 'https://c.example' }],
      }),
    });
    expect(base().room_id).toBe('room_abc');
    expectCode('ROOM_MISMATCH', room.refuse('anon_1', { ...base(), room_id: 'room_other' }, 2_000));
    expectCode('ROUND_MISMATCH', room.refuse('anon_1', { ...base(), round_id: 'r9' }, 2_000));
    expectCode('ROUND_MISMATCH', room.refuse('anon_1', { ...base(), deadline_unix: 12 }, 2_000));
    expectCode('ROUND_MISMATCH', room.refuse('anon_1', { ...base(), phase: 'FINAL' }, 2_000));
    expectCode('AUTHOR_MISMATCH', room.refuse('anon_2', base(), 2_000));
    expectCode('CONTENT_TOO_LONG', room.refuse('anon_1', { ...base(), content: 'x'.repeat(21) }, 2_000));
    room.must('anon_1', { ...base(), content: 'x'.repeat(20) }, 2_000);
    const two = [...base().claims, { ...base().claims[0]!, id: 'c2' }];
    expectCode('TOO_MANY_CLAIMS', room.refuse('anon_1', { ...base(), claims: two }, 2_000));
    expectCode(
      'TOO_FEW_CITATIONS',
      room.refuse('anon_1', { ...base(), citations: base().citations.slice(0, 2) }, 2_000),
    );
  });

  it('claims, concessions, idempotency', () => {
    const room = atSubmit();
    const a = room.submission('anon_1');
    expectCode(
      'DUPLICATE_CLAIM_ID',
      room.refuse('anon_1', { ...a, claims: [a.claims[0]!, a.claims[0]!] }, 2_000),
    );
    expectCode(
      'BAD_CONCESSION',
      room.refuse('anon_1', { ...a, concessions: [{ round: 1, author: 'anon_2', claim_id: 'c1' }] }, 2_000),
    );
    room.must('anon_1', a, 2_000);
    expectCode('DUPLICATE', room.refuse('anon_1', a, 2_001));
    expectCode('NONCE_REUSED', room.refuse('anon_1', { ...a, content: 'changed' }, 2_002));
    // A new nonce is a resubmit: version 2.
    room.must('anon_1', { ...a, content: 'changed', client_nonce: 'n2' }, 2_003);
    expect(room.state.rounds[0]?.slots.anon_1?.version).toBe(2);
  });

  it('signatures and keys', () => {
    const pair = ed25519.keyPairFromSeed(new Uint8Array(32).fill(3));
    const required = atSubmit({ ...baseConfig, signatures: 'required' });
    expectCode('SIGNATURE_REQUIRED', required.refuse('anon_1', required.submission('anon_1'), 2_000));

    const room = atSubmit({ ...baseConfig, trust: { keys: { anon_1: [toHex(pair.publicKey)] } } });
    const a = room.submission('anon_1');
    const sig = toBase64(ed25519.sign(pair.seed, submissionBytes(a)));
    expectCode(
      'BAD_SIGNATURE',
      room.refuse(
        'anon_1',
        { ...a, signature_kind: 'ed25519', signature_b64: toBase64(new Uint8Array(64)) },
        2_000,
      ),
    );
    expectCode('BAD_SIGNATURE', room.refuse('anon_1', { ...a, signature_b64: sig }, 2_000)); // no kind
    expectCode(
      'BAD_SIGNATURE',
      room.refuse(
        'anon_2',
        { ...room.submission('anon_2'), signature_kind: 'ed25519', signature_b64: sig },
        2_000,
      ),
    );
    room.must('anon_1', { ...a, signature_kind: 'ed25519', signature_b64: sig }, 2_000);

    expectCode(
      'BAD_KEY',
      room.refuse('anon_1', { type: 'register_key', public_key: toHex(pair.publicKey) }, 2_001),
    );
    expectCode(
      'BAD_KEY',
      room.refuse('anon_2', { type: 'register_key', public_key: toHex(pair.publicKey) }, 2_001),
    );
    const closed = atSubmit({ ...baseConfig, trust: { allow_registered_keys: false } });
    expectCode(
      'KEYS_CLOSED',
      closed.refuse('anon_1', { type: 'register_key', public_key: toHex(pair.publicKey) }, 2_000),
    );
  });

  it('verdicts', () => {
    const room = atSubmit();
    submitAll(room, ['anon_1'], 2_000);
    room.advance();
    const good = room.verdictFor('anon_1', 'true');
    expectCode('NOTHING_TO_VERIFY', room.refuse('fact_checker', { ...good, author: 'anon_2' }, 12_000));
    expectCode(
      'STALE_SUBMISSION',
      room.refuse('fact_checker', { ...good, canonical_sha256: 'a'.repeat(64) }, 12_000),
    );
    expectCode(
      'BAD_VERDICT',
      room.refuse('fact_checker', { ...good, claims: [{ ...good.claims[0]!, claim_id: 'zz' }] }, 12_000),
    );
    expectCode(
      'BAD_VERDICT',
      room.refuse('fact_checker', { ...good, claims: [good.claims[0]!, good.claims[0]!] }, 12_000),
    );
    expectCode('WRONG_ROLE', room.refuse('judge_1', good, 12_000));
  });

  it('ballots, cards, stances, identities', () => {
    const room = roomAtContinueVote({ ...baseConfig, max_rounds: 1, final_voters: ['debater', 'viewer'] });
    expectCode(
      'BAD_SCORE',
      room.refuse(
        'judge_1',
        {
          type: 'score',
          cards: [
            { debater: 'anon_1', e: 1, r: 1, c: 1, v: 1, y: 1 },
            { debater: 'anon_1', e: 2, r: 2, c: 2, v: 2, y: 2 },
          ],
        },
        13_000,
      ),
    );
    expectCode(
      'BAD_STANCE',
      room.refuse(
        'viewer_1',
        { type: 'stance', when: 'before', stances: [{ debater: 'anon_9', value: 5 }] },
        13_000,
      ),
    );
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'viewer_1',
        { type: 'stance', when: 'after', stances: [{ debater: 'anon_1', value: 5 }] },
        13_000,
      ),
    );
    room.must('moderator', { type: 'bind_identity', seat: 'anon_1', identity: 'alice' }, 13_000);
    expectCode(
      'DUPLICATE_IDENTITY',
      room.refuse('moderator', { type: 'bind_identity', seat: 'anon_2', identity: 'alice' }, 13_001),
    );
    room.must('moderator', { type: 'bind_identity', seat: 'anon_1', identity: 'alice2' }, 13_002); // rebinding replaces
    expectCode('WRONG_PHASE', room.refuse('anon_1', { type: 'final_vote', approval: ['anon_2'] }, 13_003));
    expect(room.state.phase).toBe('final_submit'); // max_rounds 1: no continue vote
    room.advance(); // final round: nobody submits, so it publishes at once
    expect(room.state.phase).toBe('final_vote');
    const t = room.state.phase_at + 1;
    expectCode('BAD_BALLOT', room.refuse('viewer_1', { type: 'final_vote', approval: ['judge_1'] }, t));
    expectCode(
      'BAD_BALLOT',
      room.refuse('viewer_1', { type: 'final_vote', approval: ['anon_1'], ranking: ['anon_2', 'anon_2'] }, t),
    );
    expectCode('SELF_VOTE', room.refuse('anon_1', { type: 'final_vote', approval: ['anon_1'] }, t));
    expectCode(
      'SELF_VOTE',
      room.refuse('anon_1', { type: 'final_vote', approval: ['anon_2'], ranking: ['anon_1'] }, t),
    );
    room.must('anon_1', { type: 'final_vote', approval: ['anon_2'] }, t);
    expectCode('WRONG_ROLE', room.refuse('judge_1', { type: 'final_vote', approval: ['anon_2'] }, t));
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'viewer_1',
        { type: 'stance', when: 'before', stances: [{ debater: 'anon_1', value: 5 }] },
        t,
      ),
    );
    room.advance();
    expect(room.state.phase).toBe('results');
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'judge_1',
        { type: 'score', cards: [{ debater: 'anon_1', e: 1, r: 1, c: 1, v: 1, y: 1 }] },
        room.state.phase_at,
      ),
    );
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'moderator',
        { type: 'bind_identity', seat: 'anon_3', identity: 'late' },
        room.state.phase_at,
      ),
    );
    expect(room.state.identities.anon_1?.identity).toBe('alice2');
  });

  it('judges cannot score before anything is published', () => {
    const room = atSubmit();
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'judge_1',
        { type: 'score', cards: [{ debater: 'anon_1', e: 1, r: 1, c: 1, v: 1, y: 1 }] },
        2_000,
      ),
    );
    expectCode(
      'WRONG_PHASE',
      room.refuse(
        'fact_checker',
        {
          type: 'verdict',
          author: 'anon_1',
          canonical_sha256: 'a'.repeat(64),
          claims: [{ claim_id: 'c1', verdict: 'true', reason: 'r' }],
        },
        2_000,
      ),
    );
  });

  it("refuses the admin's operations that do not apply (admin-ops.test.ts covers them in full)", () => {
    const by = 'admin_1';
    const room = atSubmit();
    expectCode('NOT_PAUSED', room.refuse('moderator', { type: 'resume', by }, 2_000));
    room.must('anon_1', room.submission('anon_1'), 2_001);
    expectCode(
      'NOT_A_NO_SHOW',
      room.refuse('moderator', { type: 'replace_seat', by, seat: 'anon_1' }, 2_002),
    );
    const draft = { type: 'draft', content: 'x' };
    room.must('moderator', { type: 'pause', by }, 2_003);
    expectCode('PAUSED', room.refuse('anon_2', draft, 2_004));
    // A seat taken while paused is still bound, so the results can unmask it.
    room.must('moderator', { type: 'bind_identity', seat: 'anon_2', identity: 'paused-joiner' }, 2_004);
    expect(room.state.identities.anon_2?.identity).toBe('paused-joiner');
    room.must('moderator', { type: 'abort', by }, 2_005);
    expectCode('DEBATE_OVER', room.refuse('moderator', { type: 'extend', by, ms: 1_000 }, 2_006));
    const voting = roomAtContinueVote({ ...baseConfig, max_rounds: 1 });
    while (voting.state.phase !== 'final_vote') voting.advance();
    expectCode(
      'TOO_LATE',
      voting.refuse('moderator', { type: 'replace_seat', by, seat: 'anon_2' }, voting.lastTs + 1),
    );
  });

  it('the cases above provoke every code in REJECTION_CODES', () => {
    expect([...provoked].sort()).toEqual([...REJECTION_CODES].sort());
  });
});

describe('debate: legal() agrees with apply()', () => {
  it('offers submit with the exact binding fields, verdicts per pending author, and nothing once closed', () => {
    const room = atSubmit();
    const submit = debate
      .legal(room.state, 'anon_1')
      .actions.find((a) => (a as { type: string }).type === 'submit');
    expect(submit).toMatchObject({
      round_id: room.state.rounds[0]?.round_id,
      phase: 'OPENING',
      deadline_unix: 11,
      version: 0,
    });
    expect(debate.legal(room.state, 'viewer_1').actions).toEqual([]);
    submitAll(room, DEBATERS5.slice(0, 2), 2_000);
    room.advance();
    expect(
      debate.legal(room.state, 'fact_checker').actions.map((a) => (a as { author: string }).author),
    ).toEqual(['anon_1', 'anon_2']);
    verifyAll(room, 12_000);
    expect(debate.legal(room.state, 'stranger').actions).toEqual([]);
  });
});
