import type { Runtime } from './runtime.ts';

export interface TimerWatcher {
  /** One pass now (tests drive this with an injected clock). Returns entries written. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Ticks rooms whose protocol deadline has passed. Deadlines live in the store (rooms.deadline_at),
 * so a restarted server picks them up; in a cluster each tick takes the room's advisory lock, so
 * one node ticks a room at a time (and the unique seq makes a double tick impossible anyway).
 */
export function startTimerWatcher(
  runtime: Runtime,
  opts: { intervalMs?: number; limit?: number; onError?: (err: unknown) => void } = {},
): TimerWatcher {
  const interval = opts.intervalMs ?? 250;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<number> | null = null;

  const runOnce = async (): Promise<number> => {
    while (current) await current.catch(() => 0);
    current = runtime.tickDue(undefined, opts.limit);
    try {
      return await current;
    } finally {
      current = null;
    }
  };
  const loop = async () => {
    if (stopped) return;
    try {
      await runOnce();
    } catch (err) {
      opts.onError?.(err);
    }
    if (!stopped) {
      timer = setTimeout(loop, interval);
      timer.unref();
    }
  };
  timer = setTimeout(loop, 0);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (current) await current.catch(() => 0);
    },
  };
}
