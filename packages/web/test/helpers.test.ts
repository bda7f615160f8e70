import { describe, expect, it } from 'vitest';
import { draftFor } from '../src/components/ActionForm.tsx';
import { formatRemaining, remainingMs } from '../src/components/Countdown.tsx';
import { searchCodec } from '../src/lib/router.tsx';

describe('draftFor', () => {
  it('turns min* hints into starting values and keeps the type', () => {
    expect(draftFor({ type: 'bid', minAmount: 100, current: 120 })).toEqual({ type: 'bid', amount: 100 });
    expect(draftFor({ type: 'pass' })).toEqual({ type: 'pass' });
    expect(draftFor('fold')).toBe('fold');
  });
});

describe('countdown', () => {
  it('follows the server clock through the skew', () => {
    // Local clock 1000 ms behind the server: 5 s to the deadline by the server is 4 s here.
    expect(remainingMs(10_000, 1000, 5000)).toBe(4000);
    expect(remainingMs(10_000, 0, 20_000)).toBe(0);
  });
  it('formats minutes and hours', () => {
    expect(formatRemaining(61_000)).toBe('01:01');
    expect(formatRemaining(500)).toBe('00:01');
    expect(formatRemaining(3_600_000 + 5000)).toBe('1:00:05');
  });
});

describe('searchCodec', () => {
  it('keeps the address plain: every value a string, no JSON quoting', () => {
    expect(searchCodec.parseSearch('?from=25&raw=1&inspect')).toEqual({ from: '25', raw: '1', inspect: '' });
    expect(searchCodec.stringifySearch({ from: '25', tag: 'a b', gone: undefined })).toBe('?from=25&tag=a+b');
    expect(searchCodec.stringifySearch({})).toBe('');
    // A flag is written bare, as the monitor's Inspect link has always addressed the inspector.
    expect(searchCodec.stringifySearch({ inspect: '', from: '3' })).toBe('?inspect&from=3');
    expect(searchCodec.parseSearch('?inspect&from=3')).toEqual({ inspect: '', from: '3' });
  });
});
