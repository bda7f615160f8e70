import { describe, expect, it } from 'vitest';
import { ADMIN_ACTIONS, debate } from '../../rules/index.ts';
import { DEBATERS5, Room, roomAtContinueVote, submitAll, verifyAll } from './harness.ts';

// Operating a debate (docs/debate.md, "Operating a debate"): the admin's entries on the moderator
// seat, folded by the rules. baseConfig: research 0–1 000, submit until 11 000.

const by = 'admin_1';
const inSubmit = () => {
  const room = new Room();
  room.advance(); // research → submit at 1 000
  expect(room.state.phase).toBe('submit');
  return room;
};

describe('debate: operating a debate', () => {
  it('only the server writes the operations (a seat sending one is refused by the runtime)', () => {
    for (const op of ADMIN_ACTIONS) expect(debate.serverActions).toContain(op);
    const room = inSubmit();
    expect(room.refuse('anon_1', { type: 'pause', by }, 2_000)).toBe('WRONG_ROLE');
  });

  it('pause freezes the countdown with the time left; resume restarts it from there', () => {
    const room = inSubmit();
    const deadline = room.deadline()!;
    const early = room.submission('anon_1');
    room.must('moderator', { type: 'pause', by }, 4_000);
    expect(room.state.paused?.remaining).toBe(deadline - 4_000);
    expect(room.deadline()).toBeNull();
    expect(room.tick(deadline + 60_000)).toBeNull(); // nothing is due while paused
    expect(room.refuse('anon_1', early, 5_000)).toBe('PAUSED');
    expect(room.legal('anon_1').actions).toEqual([]);
    expect(room.refuse('moderator', { type: 'pause', by }, 5_000)).toBe('PAUSED');
    expect(room.seat('anon_1').paused?.remaining).toBe(deadline - 4_000);

    const resumedAt = deadline + 100_000;
    room.must('moderator', { type: 'resume', by }, resumedAt);
    expect(room.state.paused).toBeUndefined();
    expect(room.deadline()).toBe(resumedAt + (deadline - 4_000));
    expect(room.state.rounds[0]!.submit_deadline).toBe(room.deadline());
    // The submission's anti-replay deadline follows the moved window.
    room.must('anon_1', room.submission('anon_1'), resumedAt + 1);
    expect(room.refuse('moderator', { type: 'resume', by }, resumedAt + 2)).toBe('NOT_PAUSED');
  });

  it('extend moves the current window: its old end passes without a tick', () => {
    const room = inSubmit();
    const deadline = room.deadline()!;
    room.must('moderator', { type: 'extend', by, ms: 5_000 }, 3_000);
    expect(room.deadline()).toBe(deadline + 5_000);
    expect(room.tick(deadline)).toBeNull();
    room.must('anon_2', room.submission('anon_2'), deadline + 1);
    room.advance();
    expect(room.state.phase).toBe('verify');
  });

  it('extend while paused adds to the time left; extending the continue vote moves its close', () => {
    const room = inSubmit();
    room.must('moderator', { type: 'pause', by }, 4_000);
    const left = room.state.paused!.remaining;
    room.must('moderator', { type: 'extend', by, ms: 2_000 }, 4_500);
    expect(room.state.paused!.remaining).toBe(left + 2_000);

    const voting = roomAtContinueVote();
    const closes = voting.state.rounds[0]!.continue_vote!.closes_at;
    voting.must('moderator', { type: 'extend', by, ms: 1_000 }, voting.lastTs + 1);
    expect(voting.state.rounds[0]!.continue_vote!.closes_at).toBe(closes + 1_000);
    expect(voting.deadline()).toBe(closes + 1_000);
  });

  it('abort closes the debate at once, unrated, and nothing more is accepted', () => {
    const room = inSubmit();
    submitAll(room, DEBATERS5.slice(0, 2), 2_000);
    room.must('moderator', { type: 'abort', by, reason: 'test' }, 3_000);
    expect(room.state.phase).toBe('closed');
    expect(room.state.aborted).toMatchObject({ by, reason: 'test', at: 3_000 });
    expect(room.closed).toBe(true);
    expect(room.result()).toBeNull();
    expect(room.refuse('anon_3', { type: 'draft', content: 'late' }, 3_001)).toBe('PHASE_CLOSED');
  });

  it('an operation on a finished debate is DEBATE_OVER', () => {
    const room = inSubmit();
    room.must('moderator', { type: 'abort', by }, 3_000);
    expect(room.refuse('moderator', { type: 'extend', by, ms: 1_000 }, 3_001)).toBe('DEBATE_OVER');
  });

  it('replace_seat takes only a seat that never submitted, while arguments are made', () => {
    const room = inSubmit();
    room.must('anon_1', room.submission('anon_1'), 2_000);
    expect(room.refuse('moderator', { type: 'replace_seat', by, seat: 'anon_1' }, 2_001)).toBe(
      'NOT_A_NO_SHOW',
    );
    expect(room.refuse('moderator', { type: 'replace_seat', by, seat: 'judge_1' }, 2_001)).toBe(
      'UNKNOWN_SEAT',
    );
    const ok = room.must('moderator', { type: 'replace_seat', by, seat: 'anon_2' }, 2_002);
    expect(ok.note).toEqual({ replaced: 'anon_2' });

    const late = roomAtContinueVote({ ...room.state.config, max_rounds: 1 });
    expect(late.state.phase).toBe('final_submit');
    verifyAll(late, late.lastTs + 1);
    late.advance(); // final_submit ends: nobody submitted a closing statement
    while (late.state.phase !== 'final_vote') late.advance();
    expect(late.refuse('moderator', { type: 'replace_seat', by, seat: 'anon_3' }, late.lastTs + 1)).toBe(
      'TOO_LATE',
    );
  });
});
