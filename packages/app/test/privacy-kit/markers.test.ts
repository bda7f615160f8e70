import { describe, expect, it } from 'vitest';
import { occurs, RoomSecrets } from './markers.ts';

describe('privacy kit markers', () => {
  it('finds a marker only as a whole token: not inside a longer number, word or hash', () => {
    expect(occurs('{"amount":4817263}', '4817263')).toBe(true);
    expect(occurs('"amount":48172630', '4817263')).toBe(false);
    expect(occurs('"commit":"ab4817263cd"', '4817263')).toBe(false);
    expect(occurs('x 14817263 4817263 y', '4817263')).toBe(true);
    // A form that starts and ends with quotes (a card) needs no edge of its own.
    expect(occurs('"hole":["Ah","Kd"]', '"Ah"')).toBe(true);
    expect(occurs('"hole":"AhKd"', '"Ah"')).toBe(false);
    expect(occurs('"hole":"AhKd"', '"AhKd"')).toBe(true);
  });

  it('gives one label one marker, distinct numbers, and credits what a seat sent to that seat', () => {
    const s = new RoomSecrets('t');
    const word = s.text('bid note');
    expect(s.text('bid note')).toBe(word);
    expect(s.text('other')).not.toBe(word);
    const numbers = new Set(Array.from({ length: 50 }, (_, i) => s.int(`n${i}`, 1, 60)));
    expect(numbers.size).toBe(50);
    expect(s.planted()).toEqual([]);
    s.sentBy('bidder_1', JSON.stringify({ note: word }));
    expect(s.planted()).toEqual([{ label: 'bid note', forms: [word], author: 'bidder_1' }]);
  });
});
