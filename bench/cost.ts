// What a window of a run cost this process: CPU (every thread, user + system, as /proc counts it)
// and main-thread GC pause time. The servers under test run in the bench's own process, their
// clients in child processes, so this is the server's cost.
import { PerformanceObserver } from 'node:perf_hooks';

export interface Cost {
  /** CPU time of the whole process over the window, µs. */
  cpuUs: number;
  /** GC pauses on the main thread over the window, ms. */
  gcMs: number;
  seconds: number;
}

/** Starts measuring; the returned function ends the window and gives its cost. */
export function costMeter(): () => Cost {
  let gcMs = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  });
  obs.observe({ entryTypes: ['gc'] });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // For a profile of the window alone (`node --cpu-prof`): its bounds on the profile's clock, µs.
  if (process.env.DB8_BENCH_WINDOW) process.stderr.write(`cost window from ${process.hrtime.bigint() / 1000n}\n`);
  return () => {
    if (process.env.DB8_BENCH_WINDOW) process.stderr.write(`cost window to ${process.hrtime.bigint() / 1000n}\n`);
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    // Entries still queued for the observer are delivered by takeRecords.
    for (const e of obs.takeRecords()) gcMs += e.duration;
    obs.disconnect();
    return { cpuUs: cpu.user + cpu.system, gcMs, seconds };
  };
}
