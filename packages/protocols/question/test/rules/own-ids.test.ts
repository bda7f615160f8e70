// Issue 23, "Who may speak for whom": rules 2 give every input a key only its signer can produce, so
// no one takes another's id (close-key squatting), and a refused message never blocks a corrected
// one. A room opened under rules 1 (no `rules` in its config) still folds as it did.
import { LocalRoom } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { questionConfig } from '../../rules/config.ts';
import { ownKeyOf, type RoomInput } from '../../rules/inputs.ts';
import { question, RELAY_SEAT } from '../../rules/protocol.ts';
import { signedEnvelope, T0 } from './fixtures.ts';
import { ASKER, close, input, join, P1, P2, QID, QRoom, say, summary } from './room-harness.ts';

/** A room as opened before rules 2: its stored config has no `rules`. */
class RulesOneRoom extends LocalRoom<typeof question> {
  constructor() {
    const cfg = questionConfig(signedEnvelope());
    if (!cfg.ok) throw new Error(JSON.stringify(cfg.error));
    const { rules: _latest, ...old } = cfg.value;
    super({ protocol: question, config: old, seed: 'ab'.repeat(32), now: T0 });
  }
  send(msg: unknown, at = T0 + 1000): string {
    const r = this.act(RELAY_SEAT, msg, at);
    return r.ok ? 'OK' : r.error.code;
  }
}

const squat = () => join(P1, { 'input/id': `close:${QID}` });

describe('own ids (rules 2)', () => {
  it('a participant joining with input/id close:<qid> does not make the asker’s close REPLAYED', () => {
    const room = new QRoom();
    expect(room.send(squat())).toBe('OK');
    expect(room.send(close(ASKER, 'asker'))).toBe('OK');
    expect(room.state.status).toBe('closed');
  });

  it('rules 1 rooms fold as recorded: there the squat still wins (why rules 2 exist)', () => {
    const old = new RulesOneRoom();
    expect(old.state.rules).toBeUndefined();
    expect(old.send(squat())).toBe('OK');
    expect(old.send(close(ASKER, 'asker'))).toBe('REPLAYED');
  });

  it('a refused close does not block the corrected one; an exact replay is still refused', () => {
    const room = new QRoom();
    expect(room.send(close(ASKER, 'asker', 'accepted-answer', 'summary:none'))).toBe('UNKNOWN_SUMMARY');
    expect(room.send(summary(ASKER, 'asker'))).toBe('OK');
    const good = close(ASKER, 'asker', 'accepted-answer', 'summary:1');
    expect(room.send(good)).toBe('OK');
    expect(room.send(good)).toBe('REPLAYED');
    const again = new QRoom();
    const j = join(P1);
    expect(again.send(j)).toBe('OK');
    expect(again.send(j)).toBe('REPLAYED');
  });

  it('an answer id taken by another participant: both stand, the key names each, the local id is ambiguous', () => {
    const room = new QRoom();
    room.send(join(P1));
    room.send(join(P2));
    const mine = say(P1, 'keep both roots', { 'input/id': 'answer:1' });
    const theirs = say(P2, 'squatted', { 'input/id': 'answer:1' });
    expect(room.send(theirs)).toBe('OK');
    expect(room.send(mine)).toBe('OK');
    const keys = room.state.messages.map((m) => m.key);
    expect(keys).toEqual([ownKeyOf(theirs as RoomInput), ownKeyOf(mine as RoomInput)]);
    expect(new Set(keys).size).toBe(2);
    const verdict = (ref: string) =>
      input(ASKER, 'swarm/room-verdict', { 'verdict/input-id': ref, 'verdict/decision': 'accept' });
    expect(room.send(verdict('answer:1'))).toBe('AMBIGUOUS_ID');
    expect(room.send(verdict(ownKeyOf(mine as RoomInput)))).toBe('OK');
    expect(room.state.messages.map((m) => m.verdict)).toEqual([null, 'accept']);
  });

  it('a summary id taken by a participant does not let the close accept the wrong summary', () => {
    const room = new QRoom({}, { participantSummaries: true });
    room.send(join(P1));
    expect(room.send(summary(P1, 'participant', 'summary:final'))).toBe('OK');
    expect(room.send(summary(ASKER, 'asker', 'summary:final'))).toBe('OK');
    expect(room.send(close(ASKER, 'asker', 'accepted-answer', 'summary:final'))).toBe('AMBIGUOUS_ID');
    const key = room.state.summaries.find((s) => s.role === 'asker')?.key as string;
    expect(room.send(close(ASKER, 'asker', 'accepted-answer', key))).toBe('OK');
    expect(room.state.close?.acceptedSummary).toBe(key);
  });
});
