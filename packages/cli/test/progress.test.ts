import { describe, expect, it } from 'vitest';
import { progress } from '../src/progress.ts';

function harness(tty: boolean) {
  const out: string[] = [];
  let now = 0;
  const p = progress({ tty, write: (t) => out.push(t), clock: () => now });
  return { p, out, tick: (ms: number) => (now += ms) };
}

describe('progress', () => {
  it('on a terminal rewrites one line in place, at most every 100 ms, and clears it when done', () => {
    const { p, out, tick } = harness(true);
    p.update('1 turn');
    p.update('2 turns'); // same instant: throttled
    tick(100);
    p.update('3 turns');
    p.done();
    expect(out).toEqual(['\r\x1b[K1 turn', '\r\x1b[K3 turns', '\r\x1b[K']);
  });

  it('on a terminal redraws an unchanged status after done() cleared it', () => {
    const { p, out, tick } = harness(true);
    p.update('5 actions');
    p.done();
    tick(1);
    p.update('5 actions', true);
    expect(out).toEqual(['\r\x1b[K5 actions', '\r\x1b[K', '\r\x1b[K5 actions']);
  });

  it('on a terminal cuts a status wider than the window (a wrapped line would not redraw in place)', () => {
    const out: string[] = [];
    const wide = (columns: number) =>
      progress({ tty: true, write: (t) => out.push(t), clock: () => 0, columns: () => columns });
    wide(10).update('round 1 · 12 turns');
    wide(0).update('round 1 · 12 turns'); // a pseudo-terminal reporting no width: 80 assumed
    expect(out).toEqual(['\r\x1b[Kround 1 …', '\r\x1b[Kround 1 · 12 turns']);
  });

  it('on a terminal puts a line above the status and redraws the status', () => {
    const { p, out } = harness(true);
    p.update('round 1');
    p.line('architect proposed');
    expect(out.join('')).toBe('\r\x1b[Kround 1\r\x1b[Karchitect proposed\n\r\x1b[Kround 1');
  });

  it('off a terminal prints plain lines: only new ones, at most one per 5 s unless forced', () => {
    const { p, out, tick } = harness(false);
    p.update('round 1 · 0 turns');
    tick(1000);
    p.update('round 1 · 3 turns'); // too soon
    p.update('round 2 · 3 turns', true); // forced (a phase change)
    tick(5000);
    p.update('round 2 · 3 turns'); // nothing new
    p.update('round 2 · 6 turns');
    p.line('a line');
    p.done();
    expect(out).toEqual(['round 1 · 0 turns\n', 'round 2 · 3 turns\n', 'round 2 · 6 turns\n', 'a line\n']);
    expect(out.join('')).not.toContain('\r');
  });
});
