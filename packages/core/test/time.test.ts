import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deadlineStep, MAX_TIMER_MS, parseRfc3339, Rfc3339Schema, timerDelay } from '../src/index.ts';

describe('parseRfc3339', () => {
  it('reads RFC 3339 date-times as unix ms', () => {
    expect(parseRfc3339('2030-01-01T00:00:00Z')).toBe(Date.UTC(2030, 0, 1));
    expect(parseRfc3339('2030-01-01t00:00:00z')).toBe(Date.UTC(2030, 0, 1));
    expect(parseRfc3339('2030-01-01T01:30:00+01:30')).toBe(Date.UTC(2030, 0, 1));
    expect(parseRfc3339('2029-12-31T19:00:00-05:00')).toBe(Date.UTC(2030, 0, 1));
    expect(parseRfc3339('2030-01-01T00:00:00-00:00')).toBe(Date.UTC(2030, 0, 1));
    expect(parseRfc3339('2030-01-01T00:00:00.1Z')).toBe(Date.UTC(2030, 0, 1) + 100);
    expect(parseRfc3339('2030-01-01T00:00:00.123456789Z')).toBe(Date.UTC(2030, 0, 1) + 123);
    expect(parseRfc3339('2028-02-29T12:00:00Z')).toBe(Date.UTC(2028, 1, 29, 12));
    expect(parseRfc3339('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29));
    expect(parseRfc3339('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseRfc3339('0000-01-01T00:00:00Z')).toBe(Date.parse('0000-01-01T00:00:00Z'));
    expect(parseRfc3339('9999-12-31T23:59:59.999Z')).toBe(Date.parse('9999-12-31T23:59:59.999Z'));
  });

  it('normalises a leap second to the last millisecond of its UTC minute, only at 23:59 UTC', () => {
    const last = Date.UTC(2016, 11, 31, 23, 59, 59, 999);
    expect(Date.parse('2016-12-31T23:59:60Z')).toBeNaN(); // why this parser exists
    expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(last);
    expect(parseRfc3339('2016-12-31T23:59:60.5Z')).toBe(last);
    expect(parseRfc3339('2016-12-31T15:59:60-08:00')).toBe(last);
    expect(parseRfc3339('2017-01-01T00:59:60+01:00')).toBe(last);
    expect(parseRfc3339('2016-12-31T12:00:60Z')).toBeNull();
    expect(parseRfc3339('2016-12-31T23:58:60Z')).toBeNull();
    expect(parseRfc3339('2016-12-31T23:59:60+01:00')).toBeNull();
  });

  it('refuses what is not RFC 3339, even where Date.parse reads it', () => {
    for (const bad of [
      '2030-01-01 00:00:00Z',
      '2030-01-01T00:00:00',
      '2030-01-01T00:00Z',
      '2030-01-01T00:00:00+0100',
      '2030-01-01T00:00:00+24:00',
      '2030-01-01T00:00:00+01:60',
      '2030-02-30T00:00:00Z',
      '2029-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-00-10T00:00:00Z',
      '2030-01-00T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2030-01-01T00:60:00Z',
      '2030-01-01T00:00:61Z',
      '2030-01-01T00:00:00.Z',
      '+02030-01-01T00:00:00Z',
      '2030-01-01T00:00:00Z\n',
      ' 2030-01-01T00:00:00Z',
      'Tue Jan 01 2030',
      '',
      `2030-01-01T00:00:00.${'1'.repeat(100)}Z`,
    ]) {
      expect(parseRfc3339(bad), bad).toBeNull();
    }
    expect(parseRfc3339(0)).toBeNull();
    expect(parseRfc3339(null)).toBeNull();
  });

  it('agrees with Date for every instant Date writes, and answers finite integers or null', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 253_402_300_799_999 }), (ms) => {
        expect(parseRfc3339(new Date(ms).toISOString())).toBe(ms);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const v = parseRfc3339(s);
        expect(v === null || Number.isSafeInteger(v)).toBe(true);
      }),
    );
  });

  it('Rfc3339Schema accepts what the parser reads and says date-time in JSON Schema', () => {
    expect(Rfc3339Schema.safeParse('2016-12-31T23:59:60Z').success).toBe(true);
    expect(Rfc3339Schema.safeParse('2030-02-30T00:00:00Z').success).toBe(false);
  });
});

describe('timer delays', () => {
  it('keep every delay within what setTimeout holds; NaN and Infinity wait the longest', () => {
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(1.2)).toBe(2);
    expect(timerDelay(30 * 86_400_000)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.NaN)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
  });

  it('arm a far deadline in steps', () => {
    expect(deadlineStep(1000, 400)).toEqual({ delay: 600, final: true });
    expect(deadlineStep(30 * 86_400_000, 0)).toEqual({ delay: MAX_TIMER_MS, final: false });
    expect(deadlineStep(Number.NaN, 0)).toEqual({ delay: MAX_TIMER_MS, final: false });
    expect(deadlineStep(5, 10)).toEqual({ delay: 0, final: true });
  });
});
