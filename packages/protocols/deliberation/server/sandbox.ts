import { ApiError } from '@db8/server/kit';
import type { Measurement } from '../rules/index.ts';
import type { CodeQuality } from './quality.ts';
import { newNonce } from './sandbox-channel.ts';
import { type HostOptions, probeSandbox, type SandboxProbe } from './sandbox-host.ts';
import { type ProcessRun, runProcess } from './sandbox-process.ts';
import { buildSuite, RUNNER_SOURCE } from './sandbox-runner.ts';

/**
 * The deliberation sandbox (docs/deliberation.md#sandbox): runs a code task's tests against one
 * code version and reports the pass rate. The code runs in a bubblewrap sandbox (new user, pid,
 * mount, ipc, uts, network and cgroup namespaces; a read-only root of node, prlimit and their
 * libraries; one size-capped tmpfs; prlimit's address-space, data, process, file-size and CPU
 * limits; a wall-clock kill) with Node's permission model as an inner layer (sandbox-host.ts,
 * sandbox-process.ts). Verdicts travel on a channel the code cannot write (sandbox-channel.ts,
 * sandbox-runner.ts). Where no sandbox can be made it refuses (SANDBOX_UNAVAILABLE), never runs
 * the code another way.
 *
 * The tests are an ES module importing `./solution.mjs` (the version under test): its default
 * export (or `tests`) is an object of name → function, an array of `[name, fn]`, or a function
 * of the solution module returning either. A test passes when its function returns (or its
 * promise resolves); `node:assert` is there to throw with.
 */

export interface SandboxLimits {
  /** Wall-clock limit for the whole run (default 10 s). */
  timeoutMs: number;
  /** V8 heap cap and the base of the kernel and RSS limits, in MiB (default 128). */
  memoryMb: number;
  /** Largest file the code may write, in bytes (default 8 MiB). */
  fileBytes: number;
  /** All it may write: the size of its tmpfs, the code and tests included (default 32 MiB). */
  diskBytes: number;
  /** Processes and threads inside (RLIMIT_NPROC; node itself needs about a dozen; default 64). */
  processes: number;
  /** Output kept from stdout/stderr, in bytes (default 64 KiB). */
  outputBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 10_000,
  memoryMb: 128,
  fileBytes: 8 * 1024 * 1024,
  diskBytes: 32 * 1024 * 1024,
  processes: 64,
  outputBytes: 64 * 1024,
};

export type SandboxStatus =
  /** The harness ran every test to the end (some may have failed). */
  | 'ok'
  /** Killed by the time limit. */
  | 'timeout'
  /** Killed or aborted by a memory limit. */
  | 'memory'
  /** Ended before the harness finished (a throw while loading, an exit, a refused operation…). */
  | 'crashed'
  /** Not run: a language the sandbox does not run, or no sandbox on this machine (`code`). */
  | 'unsupported';

export interface SandboxResult {
  status: SandboxStatus;
  /** Why it was not run (status `unsupported` only). */
  code?: 'SANDBOX_UNAVAILABLE' | 'UNSUPPORTED_LANGUAGE';
  passed: number;
  failed: number;
  /** Tests the module declared (0 when it never loaded). */
  total: number;
  /** passed ÷ total; 0 when nothing ran; null only when `unsupported`. */
  passRate: number | null;
  failures: { name: string; message: string }[];
  durationMs: number;
  exitCode: number | null;
  signal: string | null;
  /** Peak RSS the watchdog saw, in KiB. */
  peakRssKb: number;
  /** How the run was isolated (null when it did not run). */
  isolation: { sandbox: 'bubblewrap'; runAs: 'nobody' | 'server'; nodePermissions: boolean } | null;
  /** Combined output (truncated), for reflections and the turn's test results. */
  output: string;
}

export interface SandboxInput {
  language: string;
  source: string;
  tests: string;
}

export interface SandboxOptions extends HostOptions {
  limits?: Partial<SandboxLimits>;
  /** Node's permission model inside the sandbox (default on; tests turn it off to show bwrap alone holds). */
  nodePermissions?: boolean;
}

/** Whether this machine can run the sandbox (a tiny bwrap probe, run once). */
export function sandboxSupport(opts: HostOptions = {}): SandboxProbe {
  return probeSandbox(opts);
}

/**
 * Refuses a room whose config is a code task with tests where no sandbox can run them: 409
 * SANDBOX_UNAVAILABLE at creation, rather than a room whose versions can never be measured.
 */
export function assertSandboxFor(config: unknown, opts: HostOptions = {}): void {
  const task = (config as { task?: { kind?: unknown; tests?: unknown } } | null)?.task;
  if (task?.kind !== 'code' || typeof task.tests !== 'string' || !task.tests.trim()) return;
  const p = probeSandbox(opts);
  if (!p.ok)
    throw new ApiError(409, 'SANDBOX_UNAVAILABLE', 'this server cannot run code tasks: no sandbox', {
      reason: p.reason,
    });
}

const LANGUAGES = { js: ['javascript', 'js', 'mjs', 'node'], ts: ['typescript', 'ts'] } as const;

export function loaderOf(language: string): 'js' | 'ts' | null {
  const lang = language.toLowerCase();
  if ((LANGUAGES.js as readonly string[]).includes(lang)) return 'js';
  if ((LANGUAGES.ts as readonly string[]).includes(lang)) return 'ts';
  return null;
}

function notRun(code: NonNullable<SandboxResult['code']>, message: string): SandboxResult {
  return {
    status: 'unsupported',
    code,
    passed: 0,
    failed: 0,
    total: 0,
    passRate: null,
    failures: [],
    durationMs: 0,
    exitCode: null,
    signal: null,
    peakRssKb: 0,
    isolation: null,
    output: `${code}: ${message}`,
  };
}

/** A failed measurement in which no test ran: 0 passed, with why. */
function crashedBeforeTests(why: string, durationMs: number): SandboxResult {
  return {
    status: 'crashed',
    passed: 0,
    failed: 0,
    total: 0,
    passRate: 0,
    failures: [],
    durationMs,
    exitCode: null,
    signal: null,
    peakRssKb: 0,
    isolation: null,
    output: `crashed: 0/0 passed\n${why}`,
  };
}

/** A version that does not compile: measured (0 of its tests), with esbuild's message. */
function compileFailed(what: string, err: unknown, started: number): SandboxResult {
  const message = `${what} does not compile: ${String((err as Error).message ?? err).slice(0, 2000)}`;
  return crashedBeforeTests(message, Date.now() - started);
}

/**
 * A run that never finished because the server stopped during it (worker.ts): a failed
 * measurement, recorded once instead of running the version again.
 */
export function interruptedResult(startedAt: number): SandboxResult {
  const when = new Date(startedAt).toISOString();
  return crashedBeforeTests(
    `interrupted: the run that started at ${when} never finished (the server stopped during it); recorded as failed, not run again`,
    0,
  );
}

/** Run `tests` against one code version in the sandbox. Never throws for the code's faults. */
export async function runSandboxed(input: SandboxInput, opts: SandboxOptions = {}): Promise<SandboxResult> {
  const started = Date.now();
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const loader = loaderOf(input.language);
  if (!loader)
    return notRun(
      'UNSUPPORTED_LANGUAGE',
      `the sandbox runs javascript and typescript, not ${input.language}`,
    );
  const probe = probeSandbox(opts);
  if (!probe.ok) return notRun('SANDBOX_UNAVAILABLE', probe.reason);
  let solution: string;
  let suite: string;
  try {
    solution =
      loader === 'js'
        ? input.source
        : (
            await (
              await import('esbuild')
            ).transform(input.source, {
              loader: 'ts',
              format: 'esm',
              target: 'node20',
            })
          ).code;
  } catch (err) {
    return compileFailed('the code', err, started);
  }
  try {
    suite = await buildSuite(input.tests, loader);
  } catch (err) {
    return compileFailed('the tests', err, started);
  }
  const nodePermissions = opts.nodePermissions ?? true;
  const run = await runProcess({
    host: probe.host,
    limits,
    files: { runner: RUNNER_SOURCE, suite, solution },
    nonce: newNonce(),
    nodePermissions,
  });
  if (!run.started)
    return notRun('SANDBOX_UNAVAILABLE', `bwrap did not start: ${run.stderr.trim().slice(0, 500)}`);
  return resultOf(run, limits.outputBytes, {
    sandbox: 'bubblewrap',
    runAs: probe.host.runAs,
    nodePermissions,
  });
}

function resultOf(
  run: ProcessRun,
  outputBytes: number,
  isolation: SandboxResult['isolation'],
): SandboxResult {
  const { channel } = run;
  const heapDeath = /heap out of memory|Allocation failed|Array buffer allocation failed/i.test(run.stderr);
  const status: SandboxStatus = channel.done
    ? 'ok'
    : run.killedFor === 'timeout'
      ? 'timeout'
      : run.killedFor === 'memory' || heapDeath
        ? 'memory'
        : 'crashed';
  const total = channel.names?.length ?? 0;
  const verdicts = [...channel.verdicts.values()];
  const passed = verdicts.filter((v) => v.ok).length;
  const failures = verdicts.filter((v) => !v.ok).map((v) => ({ name: v.name, message: v.message }));
  if (total > verdicts.length)
    failures.push({
      name: '(unfinished)',
      message: `${total - verdicts.length} test(s) never finished: ${status}`,
    });
  const output = [
    `${status}: ${passed}/${total} passed`,
    ...failures.map((f) => `FAIL ${f.name}: ${f.message}`),
    run.stdout.trim() && `stdout:\n${run.stdout.trim()}`,
    run.stderr.trim() && `stderr:\n${run.stderr.trim()}`,
  ]
    .filter(Boolean)
    .join('\n')
    .slice(0, outputBytes);
  return {
    status,
    passed,
    failed: total - passed,
    total,
    passRate: total > 0 ? passed / total : 0,
    failures,
    durationMs: run.durationMs,
    exitCode: run.exitCode,
    signal: run.signal,
    peakRssKb: run.peakRssKb,
    isolation,
    output,
  };
}

/**
 * What the operator records for a version: the pass rate measured and how, and the analyser's
 * quality (quality.ts; null when it could not read the code — never an invented number).
 */
export function measurementOf(r: SandboxResult, source: string, quality: CodeQuality | null): Measurement {
  return {
    qualityScore: quality?.qualityScore ?? null,
    testPassRate: r.passRate,
    metrics: {
      tests: r.total,
      passed: r.passed,
      failed: r.failed,
      durationMs: r.durationMs,
      peakRssKb: r.peakRssKb,
      timedOut: r.status === 'timeout' ? 1 : 0,
      memoryKilled: r.status === 'memory' ? 1 : 0,
      crashed: r.status === 'crashed' ? 1 : 0,
      netIsolated: r.isolation ? 1 : 0,
      lines: source.split('\n').length,
      bytes: Buffer.byteLength(source),
      ...quality?.metrics,
    },
  };
}

/**
 * Limits and the bwrap binary from the environment: DB8_SANDBOX_TIMEOUT_MS, DB8_SANDBOX_MEMORY_MB,
 * DB8_SANDBOX_DISK_MB, DB8_SANDBOX_BWRAP (else the defaults).
 */
export function sandboxOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): SandboxOptions {
  const n = (v: string | undefined) =>
    v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : undefined;
  const timeoutMs = n(env.DB8_SANDBOX_TIMEOUT_MS);
  const memoryMb = n(env.DB8_SANDBOX_MEMORY_MB);
  const diskMb = n(env.DB8_SANDBOX_DISK_MB);
  return {
    limits: {
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(memoryMb ? { memoryMb } : {}),
      ...(diskMb ? { diskBytes: Math.round(diskMb * 1024 * 1024) } : {}),
    },
    ...(env.DB8_SANDBOX_BWRAP ? { bwrapPath: env.DB8_SANDBOX_BWRAP } : {}),
  };
}
