import { describe, expect, it } from 'vitest';
import { ago, isInstant } from '../src/lib/when.ts';

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);

describe('isInstant', () => {
  it('takes unix-ms fields named as instants', () => {
    for (const key of ['closesAt', 'openedAt', 'created_at', 'deadline', 'deadline_ms', 'ts', 'at', 'lastTs'])
      expect(isInstant(key, NOW), key).toBe(true);
  });
  it('leaves durations, amounts, seconds and other names alone', () => {
    expect(isInstant('biddingWindowMs', NOW)).toBe(false);
    expect(isInstant('turnWindow', NOW)).toBe(false);
    expect(isInstant('amount', NOW)).toBe(false);
    expect(isInstant('deadline', 600_000)).toBe(false); // a duration's size, not an instant
    expect(isInstant('deadline_unix', Math.floor(NOW / 1000))).toBe(false); // seconds
    expect(isInstant('closesAt', NOW + 0.5)).toBe(false);
    expect(isInstant('closesAt', String(NOW))).toBe(false);
  });
});

describe('ago', () => {
  it('says how long ago, or how long until', () => {
    expect(ago(NOW - 2000, NOW)).toBe('just now');
    expect(ago(NOW - 42_000, NOW)).toBe('42 s ago');
    expect(ago(NOW - 3 * 60_000, NOW)).toBe('3 min ago');
    expect(ago(NOW - 2 * 3_600_000, NOW)).toBe('2 h ago');
    expect(ago(NOW - 5 * 86_400_000, NOW)).toBe('5 d ago');
    expect(ago(NOW + 90_000, NOW)).toBe('in 1 min');
  });
});
