import { describe, expect, it } from 'vitest';
import { deckCommitment, deckForHand, saltForHand } from '../../../rules/deck.ts';
import { type HandNote, poker, type TableState, verifyDeckNotes } from '../../../rules/index.ts';

const SEED = 'ab'.repeat(32);
const T0 = 1_000_000;

function table(startingStack: number): TableState {
  const config = poker.configSchema.parse({ seats: 2, smallBlind: 1, bigBlind: 2, startingStack });
  let s = poker.setup(config, { seats: poker.seats(config), seed: SEED, now: T0 });
  for (const seat of ['seat_0', 'seat_1']) {
    const r = poker.apply(s, { seat, action: { kind: 'sitIn' }, now: T0, seq: 1 });
    if (!r.ok) throw new Error(r.error.code);
    expect(r.note).toBeUndefined();
    s = r.state;
  }
  return s;
}

describe('poker hand notes', () => {
  it('the deal notes the commitment; a stop mid-hand reveals the called-off deck', () => {
    const s = table(100);
    const deal = poker.tick(s, s.nextHandAt!, 3)!;
    const deck = deckForHand(SEED, 1);
    const salt = saltForHand(SEED, 1);
    expect(deal.note).toEqual({ hand: 1, deck_commitment: deckCommitment(deck, salt) });
    const stop = poker.apply(deal.state, { seat: 'house', action: { kind: 'stop' }, now: T0 + 5000, seq: 4 });
    if (!stop.ok) throw new Error(stop.error.code);
    expect(stop.note).toEqual({ hand: 1, deck, salt });
    const entries = [
      { seq: 3, kind: 'tick', note: deal.note },
      { seq: 4, kind: 'action', note: stop.note },
    ];
    expect(verifyDeckNotes(entries, { seed: SEED })).toMatchObject({ ok: true, committed: 1, verified: 1 });
    // Without the reveal, a closed table is caught out.
    const unrevealed = verifyDeckNotes([entries[0]!, { seq: 5, kind: 'close', payload: { seed: SEED } }]);
    expect(unrevealed.problems).toEqual(['hand 1 (committed at seq 3) was never revealed']);
  });

  it('all-in on the blinds: one entry commits and reveals the same hand', () => {
    const s = table(1);
    const t = poker.tick(s, s.nextHandAt!, 3)!;
    const note = t.note as HandNote;
    expect(note.hand).toBe(1);
    expect(note.deck_commitment).toBe(deckCommitment(note.deck!, note.salt!));
    expect(verifyDeckNotes([{ seq: 3, kind: 'tick', note }], { seed: SEED }).ok).toBe(true);
    expect(verifyDeckNotes([{ seq: 3, kind: 'tick', note }], { seed: 'cd'.repeat(32) }).ok).toBe(false);
  });
});
