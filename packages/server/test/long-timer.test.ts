// Timers for far deadlines (issue 23): setTimeout holds 2^31 − 1 ms at most and fires a longer
// delay after 1 ms, so a 30-day question's tick timer fired at once and re-armed in a loop; the
// scheduler armed NaN deadlines the same way. Injected timers show what gets armed.
import { MAX_TIMER_MS } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { armAt, type Timers } from '../src/runtime/long-timer.ts';
import { DeadlineScheduler } from '../src/runtime/scheduler.ts';

const DAY = 86_400_000;

class FakeTimers implements Timers {
  armed: Array<{ fn: () => void; ms: number; live: boolean }> = [];
  set(fn: () => void, ms: number) {
    const t = { fn, ms, live: true };
    this.armed.push(t);
    return t;
  }
  clear(h: unknown) {
    (h as { live: boolean }).live = false;
  }
  /** Fires the newest live timer, advancing `clock` by its delay. */
  fireNext(clock: { now: number }): boolean {
    const t = this.armed.filter((x) => x.live).at(-1);
    if (!t) return false;
    t.live = false;
    clock.now += t.ms;
    t.fn();
    return true;
  }
}

describe('armAt', () => {
  it('arms a 30-day deadline in steps no longer than setTimeout holds, and fires once at the deadline', () => {
    const clock = { now: 0 };
    const timers = new FakeTimers();
    let fired = 0;
    armAt(
      30 * DAY,
      () => fired++,
      () => clock.now,
      timers,
    );
    while (timers.fireNext(clock)) if (timers.armed.length > 10) break;
    expect(fired).toBe(1);
    expect(clock.now).toBe(30 * DAY);
    expect(timers.armed.map((t) => t.ms)).toEqual([MAX_TIMER_MS, 30 * DAY - MAX_TIMER_MS]);
    for (const t of timers.armed) expect(t.ms).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  it('a NaN deadline waits the longest step and never fires; cancel stops it', () => {
    const clock = { now: 0 };
    const timers = new FakeTimers();
    let fired = 0;
    const cancel = armAt(
      Number.NaN,
      () => fired++,
      () => clock.now,
      timers,
    );
    for (let i = 0; i < 3; i++) timers.fireNext(clock);
    expect(fired).toBe(0);
    expect(timers.armed.every((t) => t.ms === MAX_TIMER_MS)).toBe(true);
    cancel();
    expect(timers.armed.some((t) => t.live)).toBe(false);
  });

  it('a past deadline fires at once', () => {
    const timers = new FakeTimers();
    let fired = 0;
    armAt(
      5,
      () => fired++,
      () => 10,
      timers,
    );
    expect(timers.armed[0]?.ms).toBe(0);
    timers.fireNext({ now: 10 });
    expect(fired).toBe(1);
  });
});

describe('DeadlineScheduler delays', () => {
  function scheduler(deadlines: Array<{ id: string; deadlineAt: number }>) {
    const timers = new FakeTimers();
    const clock = { now: 1_000 };
    const ticked: string[] = [];
    const s = new DeadlineScheduler(
      {
        now: () => clock.now,
        store: {
          rooms: {
            get: async () => null,
            deadlines: async (after: unknown) => (after ? [] : deadlines),
          } as never,
        },
        tick: async (id) => {
          ticked.push(id);
          return null;
        },
      },
      { timers, resyncMs: 0 },
    );
    return { s, timers, clock, ticked };
  }

  it('arms no timer for a NaN deadline (its 1-ms timer re-armed in a loop)', async () => {
    const { s, timers } = scheduler([{ id: 'nan', deadlineAt: Number.NaN }]);
    await s.start();
    expect(timers.armed.filter((t) => t.live).map((t) => t.ms)).toEqual([]);
    expect(s.deadlineOf('nan')).toBeNull();
    await s.stop();
  });

  it('arms a 30-day deadline within setTimeout range and ticks only when it is due', async () => {
    const { s, timers, clock, ticked } = scheduler([{ id: 'far', deadlineAt: 1_000 + 30 * DAY }]);
    await s.start();
    expect(timers.armed.at(-1)?.ms).toBe(MAX_TIMER_MS);
    timers.fireNext(clock);
    expect(ticked).toEqual([]);
    expect(timers.armed.at(-1)?.ms).toBe(30 * DAY - MAX_TIMER_MS);
    await s.stop();
  });
});
