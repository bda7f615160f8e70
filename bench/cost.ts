// What a window of a run cost this process: CPU (every thread, user + system, as /proc counts it)
// and main-thread GC pause time. The servers under test run in the bench's own process, their
// clients in child processes, so this is the server's cost.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * `DB8_BENCH_HEAPPROF=<file>`: V8's sampling heap profile of the window, garbage included (what
 * `--heap-prof` leaves out: it keeps only what is still alive at exit), written to the file.
 */
function allocationSampler(): (() => void) | null {
  const file = process.env.DB8_BENCH_HEAPPROF;
  if (!file) return null;
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  return () =>
    session.post('HeapProfiler.stopSampling', (err, res) => {
      if (!err) writeFileSync(file, JSON.stringify(res.profile));
      session.disconnect();
    });
}

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
  // For a profile of the window alone (`node --cpu-prof`, `--trace-gc-nvp`): its bounds on the
  // profile's clock (µs) and on the process's (ms, ~ the GC trace's).
  const mark = (what: string) =>
    process.env.DB8_BENCH_WINDOW &&
    process.stderr.write(`cost window ${what} ${process.hrtime.bigint() / 1000n} ${performance.now()}\n`);
  mark('from');
  const stopSampling = allocationSampler();
  return () => {
    mark('to');
    stopSampling?.();
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    // Entries still queued for the observer are delivered by takeRecords.
    for (const e of obs.takeRecords()) gcMs += e.duration;
    obs.disconnect();
    return { cpuUs: cpu.user + cpu.system, gcMs, seconds };
  };
}
