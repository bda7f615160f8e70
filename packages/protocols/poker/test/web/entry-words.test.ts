import type { Entry } from '@db8/web/kit';
import { describe, expect, it } from 'vitest';
import { describePokerEntry } from '../../web/entry-words.ts';

// A table's log entries in words, as the live log, journal, inspector and admin events show them.

const entry = (kind: string, actor: string, payload?: unknown, note?: unknown): Entry =>
  ({ v: 1, room: 'r', seq: 1, ts: 0, kind, actor, vis: { kind: 'public' }, payload, note }) as Entry;

describe('poker entries in words', () => {
  it('says what each seat and the house did', () => {
    expect(
      describePokerEntry(entry('action', 'seat_2', { kind: 'raiseTo', amount: 40, turnToken: 't' })),
    ).toBe('seat 2 raises to 40');
    expect(describePokerEntry(entry('action', 'seat_0', { kind: 'fold', turnToken: 't' }))).toBe(
      'seat 0 folds',
    );
    expect(describePokerEntry(entry('action', 'seat_1', { kind: 'leave' }))).toBe('seat 1 leaves the table');
    expect(describePokerEntry(entry('action', 'house', { kind: 'kick', seat: 3 }))).toBe(
      'the house removes seat 3',
    );
    expect(describePokerEntry(entry('action', 'house', { kind: 'topUp', seat: 1, amount: 500 }))).toBe(
      'the house adds 500 chips to seat 1',
    );
    expect(describePokerEntry(entry('join', 'seat_4', { seat: 'seat_4', principal: 'agent_x' }))).toBe(
      'seat 4 is taken',
    );
  });

  it('names deals and hand ends from the entry note, and the close with its reason', () => {
    const deal = entry('tick', 'system', { deadline: 1 }, { hand: 3, deck_commitment: 'ab'.repeat(32) });
    expect(describePokerEntry(deal)).toBe('hand 3 is dealt (deck committed abababab…)');
    const end = entry(
      'action',
      'seat_1',
      { kind: 'check', turnToken: 't' },
      { hand: 3, deck: ['As'], salt: 's' },
    );
    expect(describePokerEntry(end)).toBe('seat 1 checks; hand 3 ends; its deck is revealed');
    const close = entry('close', 'system', { result: { hands: 12, reason: 'idle', seats: [] } });
    expect(describePokerEntry(close)).toBe('the table is closed after 12 hands: every seat had left');
  });

  it('has no words for what it does not know, so the entry lists as JSON', () => {
    expect(describePokerEntry(entry('action', 'seat_1', { kind: 'dance' }))).toBeNull();
    expect(describePokerEntry(entry('action', 'seat_1', undefined))).toBeNull();
    expect(describePokerEntry(entry('reveal', 'seat_1', {}))).toBeNull();
  });
});
