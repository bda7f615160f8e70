import { createHash } from 'node:crypto';
import { ed25519, toBase64, toHex } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  DebateStateSchema,
  DebateViewSchema,
  debate,
  submissionBytes,
  submissionSha256,
} from '../../rules/index.ts';
import { Room } from './harness.ts';

/**
 * One debate played by hand from setup to closed: 5 debaters, 2 argument rounds, a continue
 * vote, a final round, the final vote, results, unmasking and close. It has a forfeit (anon_3
 * only drafts in round 1; anon_5 skips the final), a rejection (anon_4's false claim), a
 * resubmit (anon_2), a duplicate, a verify-bound timeout (anon_3 in round 2), a signed submission
 * (anon_1, Ed25519) and concessions. Every number in the results is computed by hand below.
 */

const pair = ed25519.keyPairFromSeed(new Uint8Array(32).fill(7));

/** sha256(a ‖ b) over raw bytes, with node:crypto — an independent check of the chain. */
const link = (prev: string, h: string) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(prev, 'hex'), Buffer.from(h, 'hex')]))
    .digest('hex');

const card = (e: number, r: number, c: number, v: number, y: number) => ({ e, r, c, v, y });

describe('debate: a full 5-debater, 2-round debate by hand', () => {
  it('runs research → … → closed with the exact reveals, chain, results and unmask', () => {
    const room = new Room();
    const s0 = room.state;
    expect(s0.phase).toBe('research');
    expect(s0.round).toBe(1);
    expect(debate.deadline(s0)).toBe(1_000);
    expect(s0.rounds[0]?.round_id).toBe(`${s0.room_ref}-r1`);
    expect(s0.rounds[0]?.label).toBe('OPENING');

    // Research: no writes, but the moderator binds identities (sealed) and anon_1 registers a key.
    const binds = ['alice', 'bob', 'carol', 'dave', 'erin'].map(
      (identity, i) =>
        room.must('moderator', { type: 'bind_identity', seat: `anon_${i + 1}`, identity }, 100 + i * 100).seq,
    );
    for (const seq of binds)
      expect(room.log[seq - 1]?.visibility).toEqual({ kind: 'seat', seat: 'moderator' });
    expect(room.seat('anon_2').debaters.map((d) => d.identity)).toEqual([null, null, null, null, null]);
    expect(room.seat('moderator').debaters[0]?.identity).toBe('alice');
    room.must('anon_1', { type: 'register_key', public_key: toHex(pair.publicKey) }, 600);
    expect(room.log.at(-1)?.visibility).toBeUndefined(); // keys are public

    expect(room.tick(999)).toBeNull();
    room.tick(1_000);
    expect(room.state.phase).toBe('submit');
    expect(debate.deadline(room.state)).toBe(11_000);

    // ---- Round 1: submit ----
    const a1 = room.submission('anon_1', {
      claims: [
        {
          id: 'c1',
          text: 'Car-free centres cut NO2 by a third',
          support: [{ kind: 'data', ref: 'EEA 2023' }],
          confidence: 90,
        },
        {
          id: 'c2',
          text: 'Retail footfall rises after pedestrianisation',
          support: [{ kind: 'citation', ref: 'https://example.org/retail' }],
          confidence: 80,
        },
      ],
    });
    a1.signature_kind = 'ed25519';
    a1.signature_b64 = toBase64(ed25519.sign(pair.seed, submissionBytes(a1)));
    const r1a1 = room.must('anon_1', a1, 2_000);
    expect(r1a1.visibility).toEqual({ kind: 'seat', seat: 'anon_1' });
    room.must('anon_2', room.submission('anon_2', { content: 'first take' }), 2_100);
    const r1a2 = room.must('anon_2', room.submission('anon_2', { content: 'second, better take' }), 2_200);
    expect(room.state.rounds[0]?.slots.anon_2?.version).toBe(2);
    room.must('anon_3', { type: 'draft', content: 'thinking…' }, 2_300);
    expect(room.state.rounds[0]?.slots.anon_3?.status).toBe('draft');
    const r1a4 = room.must(
      'anon_4',
      room.submission('anon_4', {
        claims: [
          {
            id: 'c1',
            text: 'Bans have never reduced traffic anywhere',
            support: [{ kind: 'logic', ref: 'intuition' }],
            confidence: 70,
          },
        ],
      }),
      2_400,
    );
    const r1a5 = room.must(
      'anon_5',
      room.submission('anon_5', {
        claims: [
          {
            id: 'c1',
            text: 'Delivery costs rise in car-free zones',
            support: [{ kind: 'data', ref: 'survey' }],
            confidence: 60,
          },
        ],
      }),
      2_500,
    );
    // The same client_nonce with the same payload is a duplicate: refused, nothing written.
    expect(room.refuse('anon_1', a1, 2_600)).toBe('DUPLICATE');

    // Privacy: others see that anon_1 submitted, not what; the author sees everything.
    const othersRow = room.seat('anon_2').rounds[0]?.submissions[0];
    expect(othersRow).toEqual({
      author: 'anon_1',
      status: 'submitted',
      version: 1,
      seq: r1a1.seq,
      submitted_at: 2_000,
    });
    expect(room.seat('fact_checker').rounds[0]?.submissions[0]?.payload).toBeUndefined();
    expect(room.seat('anon_1').rounds[0]?.submissions[0]?.payload?.claims).toHaveLength(2);
    expect(room.seat('anon_1').rounds[0]?.submissions[0]?.signature?.kind).toBe('ed25519');

    // ---- Round 1: the deadline flips submit → verify; anon_3 (draft only) forfeits ----
    expect(room.tick(10_999)).toBeNull();
    room.tick(11_000);
    expect(room.state.phase).toBe('verify');
    expect(room.state.rounds[0]?.slots.anon_3?.status).toBe('forfeit');
    expect(debate.deadline(room.state)).toBe(16_000);
    // The fact-checker may read the submissions now (to check them); a debater still may not.
    expect(room.seat('fact_checker').rounds[0]?.submissions[0]?.payload?.content).toBe(a1.content);
    expect(room.seat('anon_2').rounds[0]?.submissions[0]?.payload).toBeUndefined();

    const v1 = room.must('fact_checker', room.verdictFor('anon_1', 'true'), 12_000).seq;
    const v2 = room.must('fact_checker', room.verdictFor('anon_2', 'true'), 12_100).seq;
    const v4 = room.must('fact_checker', room.verdictFor('anon_4', 'false'), 12_200).seq;
    expect(room.state.rounds[0]?.slots.anon_4?.status).toBe('rejected');
    expect(debate.deadline(room.state)).toBe(16_000); // anon_5 still pending: the barrier holds
    const v5 = room.must('fact_checker', room.verdictFor('anon_5', 'unclear'), 12_300).seq;
    expect(room.state.rounds[0]?.slots.anon_5?.status).toBe('verified');
    expect(debate.deadline(room.state)).toBe(12_300); // all settled: publish is due at once

    // ---- Round 1: publish — ONE entry reveals every latest submission and verdict ----
    const pub1 = room.tick(12_300)!;
    expect(pub1.reveal).toEqual(
      [r1a1.seq, r1a2.seq, r1a4.seq, r1a5.seq, v1, v2, v4, v5].sort((a, b) => a - b),
    );
    expect(pub1.milestone).toBe('round-1-published');
    expect(room.state.phase).toBe('published');
    const r1 = room.state.rounds[0]!;
    const hashes = ['anon_1', 'anon_2', 'anon_4', 'anon_5'].map(
      (s) => r1.slots[s]!.submission!.canonical_sha256,
    );
    expect(hashes[0]).toBe(submissionSha256(a1));
    const chain1 = hashes.reduce(link, '0'.repeat(64));
    expect(r1.chain?.head).toBe(chain1);
    expect(room.state.chain).toBe(chain1);
    expect(room.seat('anon_3').rounds[0]?.submissions[1]?.payload?.content).toBe('second, better take');

    // Viewers' "before" stances (sealed), then the continue vote: 3 continue vs 2 end.
    const beforeSeqs = [
      room.must(
        'viewer_1',
        {
          type: 'stance',
          when: 'before',
          stances: [
            { debater: 'anon_1', value: 40 },
            { debater: 'anon_2', value: 50 },
          ],
        },
        12_400,
      ).seq,
      room.must(
        'viewer_2',
        {
          type: 'stance',
          when: 'before',
          stances: [
            { debater: 'anon_1', value: 60 },
            { debater: 'anon_2', value: 50 },
          ],
        },
        12_500,
      ).seq,
    ];
    const choices = ['continue', 'continue', 'end', 'continue', 'end'] as const;
    const votes = choices.map(
      (choice, i) => room.must(`anon_${i + 1}`, { type: 'vote_continue', choice }, 13_000 + i * 100).seq,
    );
    expect(room.seat('anon_1').rounds[0]?.continue_vote?.votes).toEqual({ anon_1: 'continue' });
    expect(debate.deadline(room.state)).toBe(13_400); // everyone voted
    const tally = room.tick(13_400)!;
    expect(tally.reveal).toEqual(votes);
    expect(room.state.rounds[0]?.continue_vote?.tally).toMatchObject({
      continue: 3,
      end: 2,
      outcome: 'continue',
      by: 'majority',
    });
    expect(room.state.phase).toBe('research');
    expect(room.state.round).toBe(2);
    room.tick(14_400);
    expect(room.state.phase).toBe('submit');
    expect(room.state.rounds[1]?.label).toBe('ARGUMENT');

    // ---- Round 2: concessions; anon_3 is back ----
    const r2 = (
      seat: string,
      confidence: number | undefined,
      concessions?: { round: number; author: string; claim_id: string }[],
    ) =>
      room.submission(seat, {
        claims: [
          {
            id: 'c1',
            text: `${seat} round two claim`,
            support: [{ kind: 'logic', ref: 'argument' }],
            ...(confidence !== undefined ? { confidence } : {}),
          },
        ],
        ...(concessions ? { concessions } : {}),
      });
    room.must('anon_1', r2('anon_1', 70, [{ round: 1, author: 'anon_2', claim_id: 'c1' }]), 15_000);
    room.must('anon_2', r2('anon_2', undefined, [{ round: 1, author: 'anon_2', claim_id: 'c1' }]), 15_100);
    room.must('anon_3', r2('anon_3', undefined), 15_200);
    room.must('anon_4', r2('anon_4', undefined, [{ round: 1, author: 'anon_4', claim_id: 'c1' }]), 15_300);
    room.must('anon_5', r2('anon_5', 100, [{ round: 1, author: 'anon_4', claim_id: 'c1' }]), 15_400);
    room.tick(24_400);
    expect(room.state.phase).toBe('verify');
    for (const [i, seat] of ['anon_1', 'anon_2', 'anon_4', 'anon_5'].entries()) {
      room.must('fact_checker', room.verdictFor(seat, 'true'), 25_000 + i * 100);
    }
    expect(debate.deadline(room.state)).toBe(29_400); // anon_3 unchecked: wait for the bound
    const pub2 = room.tick(29_400)!;
    expect(room.state.rounds[1]?.slots.anon_3?.verdict).toMatchObject({ by: 'timeout', outcome: 'verified' });
    expect(pub2.milestone).toBe('round-2-published');
    // Max rounds reached: published_2 goes straight on to final_submit in the same entry.
    expect(room.state.phase).toBe('final_submit');
    expect(room.state.rounds[2]).toMatchObject({
      kind: 'final',
      label: 'FINAL',
      round_id: `${room.state.room_ref}-final`,
    });
    expect(room.state.history.slice(-2).map((h) => [h.phase, h.seq])).toEqual([
      ['published', pub2.seq],
      ['final_submit', pub2.seq],
    ]);

    // ---- Final round: anon_5 does not show ----
    for (const [i, seat] of ['anon_1', 'anon_2', 'anon_3', 'anon_4'].entries()) {
      room.must(seat, room.submission(seat, { content: `${seat} closing statement` }), 30_000 + i * 100);
    }
    room.tick(37_400);
    expect(room.state.phase).toBe('final_verify');
    expect(room.state.rounds[2]?.slots.anon_5?.status).toBe('forfeit');
    for (const [i, seat] of ['anon_1', 'anon_2', 'anon_3', 'anon_4'].entries()) {
      room.must('fact_checker', room.verdictFor(seat, 'true'), 38_000 + i * 100);
    }
    const pubF = room.tick(38_300)!;
    expect(pubF.milestone).toBe('final-published');
    expect(room.state.phase).toBe('final_vote');
    expect(debate.deadline(room.state)).toBe(44_300);

    // ---- Final vote: stances after, rubric cards, ballots (all sealed) ----
    const sealedSeqs: number[] = [];
    const seal = (seat: string, action: unknown, at: number) =>
      sealedSeqs.push(room.must(seat, action, at).seq);
    seal(
      'viewer_1',
      {
        type: 'stance',
        when: 'after',
        stances: [
          { debater: 'anon_1', value: 70 },
          { debater: 'anon_2', value: 40 },
        ],
      },
      39_000,
    );
    seal(
      'viewer_2',
      {
        type: 'stance',
        when: 'after',
        stances: [
          { debater: 'anon_1', value: 80 },
          { debater: 'anon_2', value: 50 },
        ],
      },
      39_100,
    );
    seal('viewer_3', { type: 'stance', when: 'after', stances: [{ debater: 'anon_1', value: 0 }] }, 39_200); // no "before": ignored
    seal(
      'judge_1',
      {
        type: 'score',
        cards: [
          { debater: 'anon_1', ...card(80, 70, 90, 100, 60) },
          { debater: 'anon_2', ...card(70, 70, 70, 70, 70) },
          { debater: 'anon_4', ...card(40, 40, 40, 40, 40) },
          { debater: 'anon_5', ...card(100, 0, 0, 0, 0) },
        ],
      },
      39_300,
    );
    seal(
      'judge_2',
      {
        type: 'score',
        cards: [
          { debater: 'anon_1', ...card(60, 60, 60, 60, 60) },
          { debater: 'anon_2', ...card(80, 80, 80, 80, 80) },
          { debater: 'anon_4', ...card(50, 50, 50, 50, 50) },
        ],
      },
      39_400,
    );
    seal(
      'judge_3',
      {
        type: 'score',
        cards: [
          { debater: 'anon_1', ...card(90, 90, 90, 90, 90) },
          { debater: 'anon_2', ...card(50, 50, 50, 50, 50) },
        ],
      },
      39_500,
    );
    seal(
      'judge_1',
      { type: 'final_vote', approval: ['anon_1', 'anon_2'], ranking: ['anon_2', 'anon_1'] },
      40_000,
    );
    seal(
      'judge_2',
      { type: 'final_vote', approval: ['anon_1', 'anon_2'], ranking: ['anon_1', 'anon_2', 'anon_4'] },
      40_100,
    );
    seal('judge_3', { type: 'final_vote', approval: ['anon_1'] }, 40_200);
    seal('viewer_1', { type: 'final_vote', approval: ['anon_2'], ranking: ['anon_2', 'anon_1'] }, 40_300);
    seal('viewer_2', { type: 'final_vote', approval: ['anon_4'] }, 40_400);
    // One ballot missing: the vote runs its window.
    expect(debate.deadline(room.state)).toBe(44_300);
    seal('viewer_3', { type: 'final_vote', approval: ['anon_5', 'anon_4'] }, 40_500);
    // Every ballot, card and after-stance in: the vote ends with the last one (as the continue vote
    // does), not 3.8 s later; a room made before the setting existed folds as it was played.
    expect(debate.deadline(room.state)).toBe(40_500);
    const { final_vote_ends_when_all_in: _, ...oldTimings } = room.state.config.timings;
    const oldRoom = { ...room.state, config: { ...room.state.config, timings: oldTimings } };
    expect(debate.deadline(oldRoom as typeof room.state)).toBe(44_300);
    expect(room.seat('viewer_1').final_vote).toEqual({
      voted: ['judge_1', 'judge_2', 'judge_3', 'viewer_1', 'viewer_2', 'viewer_3'],
      ballots: { viewer_1: { approval: ['anon_2'], ranking: ['anon_2', 'anon_1'] } },
    });
    expect(room.result()).toBeNull();

    // ---- Results: everything sealed for the final vote (and the before-stances) is revealed at once ----
    const res = room.tick(44_300)!;
    expect(res.milestone).toBe('results');
    expect(res.reveal).toEqual([...beforeSeqs, ...sealedSeqs].sort((a, b) => a - b));
    expect(room.state.phase).toBe('results');
    const results = room.state.results!;

    // Approvals: anon_1 = j1 + j2 + j3 = 3; anon_2 = j1 + j2 + v1 = 3; anon_4 = v2 + v3 = 2;
    // anon_5 = v3 = 1; anon_3 = 0. Borda with n = 5 debaters (1st = 4, 2nd = 3, 3rd = 2 points):
    //   j1 [anon_2, anon_1]          → anon_2 +4, anon_1 +3
    //   j2 [anon_1, anon_2, anon_4]  → anon_1 +4, anon_2 +3, anon_4 +2
    //   v1 [anon_2, anon_1]          → anon_2 +4, anon_1 +3
    //   anon_1 = 3 + 4 + 3 = 10, anon_2 = 4 + 3 + 4 = 11, anon_4 = 2.
    // anon_1 and anon_2 tie on approvals (3); Borda puts anon_2 first.
    expect(results.placements.map((p) => [p.seat, p.place, p.approvals, p.borda])).toEqual([
      ['anon_2', 1, 3, 11],
      ['anon_1', 2, 3, 10],
      ['anon_4', 3, 2, 2],
      ['anon_5', 4, 1, 0],
      ['anon_3', 5, 0, 0],
    ]);

    // anon_1 — rubric: j1 = (35·80 + 30·70 + 20·90 + 5·100 + 10·60)/100 = (2800+2100+1800+500+600)/100 = 78;
    //   j2 = 60; j3 = 90. Trimmed mean of [60, 78, 90] drops 60 and 90 → 78.
    // movement: viewer_1 40→70 (+30), viewer_2 60→80 (+20); mean +25; α·25/100 = 10·0.25 = 2.5
    //   (viewer_3 gave no before-stance, so it does not count).
    // concessions: conceded anon_2's round-1 c1, checked true → honest, +2.
    // calibration: r1 c1 90 % true → (0.9−1)² = 0.01; r1 c2 80 % true → 0.04; r2 c1 70 % true → 0.09;
    //   Brier = 0.14/3 = 0.046667; bonus = 5·(1 − 0.046667/0.25) = 5·0.813333 = 4.066667 → 4.07.
    // total = 78 + 2.5 + 2 + 4.07 = 86.57.
    const score = (seat: string) => results.scores.find((x) => x.seat === seat)!;
    expect(score('anon_1')).toMatchObject({
      rubric: 78,
      judges: 3,
      movement: 2.5,
      concessions: 2,
      calibration: 4.07,
      brier: 0.0467,
      total: 86.57,
    });
    expect(score('anon_1').dimensions).toEqual({ e: 76.67, r: 73.33, c: 80, v: 83.33, y: 70 });
    // anon_2 — rubric: j1 70, j2 80, j3 50 → trimmed [50, 70, 80] → 70. movement: 50→40 (−10),
    //   50→50 (0) → mean −5 → −0.5. concessions: withdrew its own c1, checked true → −2.
    //   calibration: no confidences → 0. total = 70 − 0.5 − 2 + 0 = 67.5.
    expect(score('anon_2')).toMatchObject({
      rubric: 70,
      movement: -0.5,
      concessions: -2,
      calibration: 0,
      brier: null,
      total: 67.5,
    });
    // anon_4 — two judges (40, 50): fewer than 3, plain mean 45. Withdrew its own c1, checked
    //   false → honest, +2. Calibration: 70 % on a false claim → (0.7−0)² = 0.49 > 0.25 → 0. total 47.
    expect(score('anon_4')).toMatchObject({
      rubric: 45,
      judges: 2,
      concessions: 2,
      calibration: 0,
      brier: 0.49,
      total: 47,
    });
    // anon_5 — one judge: 35·100/100 = 35. Conceded anon_4's c1, checked false → −2. Calibration:
    //   r1 c1 was "unclear" (no outcome, skipped); r2 c1 100 % true → 0 → Brier 0 → +5. total 38.
    expect(score('anon_5')).toMatchObject({
      rubric: 35,
      judges: 1,
      concessions: -2,
      calibration: 5,
      brier: 0,
      total: 38,
    });
    // anon_3 — nobody scored it: rubric 0.
    expect(score('anon_3')).toMatchObject({ rubric: 0, judges: 0, dimensions: null, total: 0 });

    const stats = (seat: string) => results.stats.find((x) => x.seat === seat)!;
    expect(stats('anon_1')).toMatchObject({
      submitted: 3,
      verified: 3,
      forfeits: 0,
      signed: 1,
      claims: 4,
      concessions: 1,
    });
    expect(stats('anon_2')).toMatchObject({ submitted: 3, resubmits: 1 });
    expect(stats('anon_3')).toMatchObject({
      submitted: 2,
      forfeits: 1,
      verified: 2,
      verdicts: { true: 1, false: 0, unclear: 0, needs_work: 0 },
    });
    expect(stats('anon_4')).toMatchObject({
      rejected: 1,
      verified: 2,
      verdicts: { true: 2, false: 1, unclear: 0, needs_work: 0 },
    });
    expect(stats('anon_5')).toMatchObject({
      submitted: 2,
      forfeits: 1,
      verdicts: { true: 1, false: 0, unclear: 1, needs_work: 0 },
    });
    expect(results.ballots).toBe(6);
    expect(results.identities).toBeNull();
    expect(room.seat('viewer_2').debaters.every((d) => d.identity === null)).toBe(true);
    expect(room.seat('viewer_2').judging.cards.judge_1?.anon_1).toEqual(card(80, 70, 90, 100, 60));

    // ---- stats_and_reveal: the unmask reveals the moderator's sealed bindings ----
    const unmask = room.tick(46_300)!;
    expect(unmask.milestone).toBe('reveal');
    expect(unmask.reveal).toEqual(binds);
    expect(room.state.phase).toBe('stats_and_reveal');
    expect(room.state.journal_published).toBe(true);
    expect(room.seat('viewer_2').debaters.map((d) => d.identity)).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
    ]);
    expect(room.result()).toBeNull(); // not closed yet

    const closed = room.tick(48_300)!;
    expect(closed.milestone).toBe('closed');
    expect(debate.isOver(room.state)).toBe(true);
    expect(debate.deadline(room.state)).toBeNull();
    expect(room.refuse('judge_1', { type: 'final_vote', approval: ['anon_1'] }, 50_000)).toBe('PHASE_CLOSED');
    const final = room.result()!;
    expect(final.identities).toEqual({
      anon_1: 'alice',
      anon_2: 'bob',
      anon_3: 'carol',
      anon_4: 'dave',
      anon_5: 'erin',
    });
    expect(final.chain).toBe(room.state.chain);
    expect(final.rounds).toBe(3);

    // The whole FSM, in order, as the history records it.
    expect(room.state.history.map((h) => `${h.phase}@${h.round}`)).toEqual([
      'research@1',
      'submit@1',
      'verify@1',
      'published@1',
      'research@2',
      'submit@2',
      'verify@2',
      'published@2',
      'final_submit@3',
      'final_verify@3',
      'final_published@3',
      'final_vote@3',
      'results@3',
      'stats_and_reveal@3',
      'closed@3',
    ]);
    // Milestones: one signed checkpoint per published round, results, reveal and close.
    expect(room.log.filter((e) => e.milestone).map((e) => e.milestone)).toEqual([
      'round-1-published',
      'round-2-published',
      'final-published',
      'results',
      'reveal',
      'closed',
    ]);
    // Drafts and replaced versions are never revealed.
    const revealed = new Set(room.log.flatMap((e) => [...(e.reveal ?? [])]));
    const draftSeq = room.log.find((e) => e.action?.type === 'draft')!.seq;
    const anon2v1 = room.log.find((e) => e.actor === 'anon_2' && e.action?.type === 'submit')!.seq;
    expect(revealed.has(draftSeq)).toBe(false);
    expect(revealed.has(anon2v1)).toBe(false);
    // Every sealed entry is revealed by a public entry, never by the entry that sealed it.
    for (const e of room.log) {
      if (e.reveal) expect(e.visibility).toBeUndefined();
    }
    expect(DebateStateSchema.safeParse(room.state).success).toBe(true);
    for (const v of [
      { kind: 'observer' } as const,
      { kind: 'admin' } as const,
      { kind: 'seat', seat: 'anon_1' } as const,
    ]) {
      expect(DebateViewSchema.safeParse(room.view(v)).success).toBe(true);
    }
  });
});
