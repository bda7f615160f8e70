import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measurement } from '@db8/protocols/deliberation';

/**
 * The deliberation sandbox (docs/deliberation.md#sandbox): runs a code task's tests against one code
 * version in a child process and reports the pass rate. Every limit is enforced outside the code
 * under test:
 *
 * - **Files**: Node's permission model (`--experimental-permission`, Node 20) with
 *   `--allow-fs-read` and `--allow-fs-write` set to the run's own temp dir only: reading or writing
 *   anywhere else throws ERR_ACCESS_DENIED; child processes, worker threads, native addons and
 *   `process.binding` are refused by the same model (no `--allow-child-process`, `--allow-worker`,
 *   `--allow-addons`). `prlimit --fsize` caps any one file it writes.
 * - **Network**: a fresh network namespace (`unshare -n`, or `unshare -rn` when not root): no
 *   interface but a loopback that is down, so every connect fails (ENETUNREACH) and nothing of the
 *   host's loopback is reachable. Where no namespace can be made the sandbox refuses to run
 *   (status `unsupported`) unless `allowNetwork` says otherwise — and then the measurement says so
 *   (`metrics.netIsolated` 0).
 * - **Memory**: `--max-old-space-size` caps the V8 heap (a heap bomb dies with "heap out of
 *   memory"); `prlimit --data` caps the process's private writable memory in the kernel (a Buffer
 *   bomb gets an allocation failure); a watchdog reading `/proc/<pid>/status` kills the process if
 *   its RSS still passes the limit.
 * - **Time**: a wall-clock kill timer (SIGKILL to the child's process group) and
 *   `prlimit --cpu` as a CPU-seconds backstop: an infinite loop is killed.
 * - **Environment**: an empty environment, cwd the temp dir, stdin closed, output capped; the temp
 *   dir is removed afterwards.
 *
 * The tests are an ES module (`tests.mjs`) beside the version under test (`solution.mjs`): its
 * default export (or `tests`) is an object of name → function, an array of `[name, fn]`, or a
 * function of the solution module returning either. A test passes when its function returns (or
 * its promise resolves); `node:assert` is there to throw with.
 */

export interface SandboxLimits {
  /** Wall-clock limit for the whole run (default 10 s). */
  timeoutMs: number;
  /** V8 heap cap and the base of the kernel and RSS limits, in MiB (default 128). */
  memoryMb: number;
  /** Largest file the code may write, in bytes (default 8 MiB). */
  fileBytes: number;
  /** Output kept from stdout/stderr, in bytes (default 64 KiB). */
  outputBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 10_000,
  memoryMb: 128,
  fileBytes: 8 * 1024 * 1024,
  outputBytes: 64 * 1024,
};

export type SandboxStatus =
  /** The tests ran to the end (some may have failed). */
  | 'ok'
  /** Killed by the time limit. */
  | 'timeout'
  /** Killed or aborted by a memory limit. */
  | 'memory'
  /** The process died before reporting (a throw while loading, a refused operation at top level…). */
  | 'crashed'
  /** Could not run here: a language the sandbox does not run, or no isolation available. */
  | 'unsupported';

export interface SandboxResult {
  status: SandboxStatus;
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
  /** Peak RSS the watchdog saw, in KiB (0 when /proc is not readable). */
  peakRssKb: number;
  /** How the run was isolated. */
  isolation: { network: 'netns' | 'none'; fs: 'permission'; prlimit: boolean };
  /** Combined output (truncated), for reflections and the turn's test results. */
  output: string;
}

export interface SandboxInput {
  language: string;
  source: string;
  tests: string;
}

export interface SandboxOptions {
  limits?: Partial<SandboxLimits>;
  /** Run even where no network namespace can be made (the result says `network: 'none'`). */
  allowNetwork?: boolean;
  /** The node binary (default this process's). */
  nodePath?: string;
}

const MARK = '@@db8-sandbox@@';

const RUNNER = `
const say = (o) => process.stdout.write('\\n${MARK}' + JSON.stringify(o) + '\\n');
const solution = await import('./solution.mjs');
const mod = await import('./tests.mjs');
let cases = mod.default ?? mod.tests;
if (typeof cases === 'function') cases = await cases(solution);
const list = Array.isArray(cases) ? cases : Object.entries(cases ?? {});
say({ plan: list.length });
for (const [name, fn] of list) {
  try {
    await fn(solution);
    say({ name: String(name), ok: true });
  } catch (e) {
    say({ name: String(name), ok: false, message: String((e && e.message) || e).slice(0, 1000) });
  }
}
say({ done: true });
`;

let probed: { netns: string[] | null; prlimit: boolean } | null = null;

/** What this machine offers (probed once): the unshare prefix that makes a network namespace, prlimit. */
export function sandboxSupport(): { netns: string[] | null; prlimit: boolean } {
  if (probed) return probed;
  const works = (cmd: string, args: string[]) => {
    try {
      return spawnSync(cmd, args, { stdio: 'ignore', timeout: 5000 }).status === 0;
    } catch {
      return false;
    }
  };
  const netns = works('unshare', ['-n', 'true'])
    ? ['unshare', '-n', '--']
    : works('unshare', ['-rn', 'true'])
      ? ['unshare', '-rn', '--']
      : null;
  probed = { netns, prlimit: works('prlimit', ['--cpu=5', '--', 'true']) };
  return probed;
}

/** The code as an ES module Node runs: JavaScript as is, TypeScript through esbuild's transform. */
async function asModule(language: string, source: string): Promise<string | null> {
  const lang = language.toLowerCase();
  if (['javascript', 'js', 'mjs', 'node'].includes(lang)) return source;
  if (['typescript', 'ts'].includes(lang)) {
    try {
      const esbuild = await import('esbuild');
      return (await esbuild.transform(source, { loader: 'ts', format: 'esm', target: 'node20' })).code;
    } catch (err) {
      throw new Error(`cannot compile typescript here: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return null;
}

function rssKb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then(
    (s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0),
    () => 0,
  );
}

function unsupported(message: string): SandboxResult {
  return {
    status: 'unsupported',
    passed: 0,
    failed: 0,
    total: 0,
    passRate: null,
    failures: [],
    durationMs: 0,
    exitCode: null,
    signal: null,
    peakRssKb: 0,
    isolation: { network: 'none', fs: 'permission', prlimit: false },
    output: message,
  };
}

/** Run `tests` against one code version in the sandbox. Never throws for the code's faults. */
export async function runSandboxed(input: SandboxInput, opts: SandboxOptions = {}): Promise<SandboxResult> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const support = sandboxSupport();
  if (!support.netns && !opts.allowNetwork)
    return unsupported('no network namespace can be made here (unshare -n); refusing to run untrusted code');
  let solution: string | null;
  let tests: string | null;
  try {
    solution = await asModule(input.language, input.source);
    tests = await asModule(input.language, input.tests);
  } catch (err) {
    return unsupported((err as Error).message);
  }
  if (solution === null || tests === null)
    return unsupported(`the sandbox runs javascript and typescript, not ${input.language}`);
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'db8-sandbox-')));
  try {
    await writeFile(join(dir, 'solution.mjs'), solution);
    await writeFile(join(dir, 'tests.mjs'), tests);
    await writeFile(join(dir, 'runner.mjs'), RUNNER);
    const node = [
      opts.nodePath ?? process.execPath,
      '--experimental-permission',
      `--allow-fs-read=${dir}`,
      `--allow-fs-write=${dir}`,
      `--max-old-space-size=${limits.memoryMb}`,
      '--max-semi-space-size=16',
      '--no-warnings',
      'runner.mjs',
    ];
    const dataBytes = (limits.memoryMb + 192) * 1024 * 1024; // heap + code, stacks and the runtime's own
    const prlimit = support.prlimit
      ? [
          'prlimit',
          `--data=${dataBytes}`,
          `--cpu=${Math.ceil(limits.timeoutMs / 1000) + 1}`,
          `--fsize=${limits.fileBytes}`,
          '--core=0',
          '--',
        ]
      : [];
    const argv = [...prlimit, ...(support.netns ?? []), ...node];
    return await run(argv, dir, limits, {
      network: support.netns ? 'netns' : 'none',
      fs: 'permission',
      prlimit: support.prlimit,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(
  argv: string[],
  cwd: string,
  limits: SandboxLimits,
  isolation: SandboxResult['isolation'],
): Promise<SandboxResult> {
  const started = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd,
    env: {},
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  let killedFor: 'timeout' | 'memory' | null = null;
  let peak = 0;
  const kill = (why: 'timeout' | 'memory') => {
    if (killedFor) return;
    killedFor = why;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (out.length < limits.outputBytes * 4) out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (err.length < limits.outputBytes) err += d;
  });
  const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
  const rssLimitKb = (limits.memoryMb + 192) * 1024;
  const watch = setInterval(() => {
    if (child.pid === undefined) return;
    void rssKb(child.pid).then((kb) => {
      peak = Math.max(peak, kb);
      if (kb > rssLimitKb) kill('memory');
    });
  }, 25);
  return new Promise((resolve) => {
    child.on('error', (e) => {
      err += `\n${e.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      let plan: number | null = null;
      let done = false;
      const results: { name: string; ok: boolean; message: string }[] = [];
      for (const line of out.split('\n')) {
        if (!line.startsWith(MARK)) continue;
        try {
          const o = JSON.parse(line.slice(MARK.length)) as {
            plan?: number;
            done?: boolean;
            name?: string;
            ok?: boolean;
            message?: string;
          };
          if (typeof o.plan === 'number') plan = o.plan;
          else if (o.done) done = true;
          else if (typeof o.name === 'string')
            results.push({ name: o.name, ok: o.ok === true, message: o.message ?? 'failed' });
        } catch {
          // a line the code under test printed to look like ours: ignored
        }
      }
      const heapDeath = /heap out of memory|Allocation failed|Array buffer allocation failed/i.test(err);
      const status: SandboxStatus =
        killedFor === 'timeout'
          ? 'timeout'
          : killedFor === 'memory' || heapDeath
            ? 'memory'
            : done && code === 0
              ? 'ok'
              : 'crashed';
      const passed = results.filter((r) => r.ok).length;
      const total = Math.max(plan ?? 0, results.length);
      const failures = results.filter((r) => !r.ok).map((r) => ({ name: r.name, message: r.message }));
      if (status !== 'ok' && total > results.length)
        failures.push({
          name: '(unfinished)',
          message: `${total - results.length} test(s) never finished: ${status}`,
        });
      const printed = out
        .split('\n')
        .filter((l) => !l.startsWith(MARK))
        .join('\n')
        .trim();
      const output = [
        `${status}: ${passed}/${total} passed`,
        ...failures.map((f) => `FAIL ${f.name}: ${f.message}`),
        printed && `stdout:\n${printed}`,
        err.trim() && `stderr:\n${err.trim()}`,
      ]
        .filter(Boolean)
        .join('\n')
        .slice(0, limits.outputBytes);
      resolve({
        status,
        passed,
        failed: total - passed,
        total,
        passRate: total > 0 ? passed / total : 0,
        failures,
        durationMs: Date.now() - started,
        exitCode: code,
        signal,
        peakRssKb: peak,
        isolation,
        output,
      });
    });
  });
}

/** What the operator records for a version: the pass rate measured, and how. No invented quality. */
export function measurementOf(r: SandboxResult, source: string): Measurement {
  return {
    qualityScore: null,
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
      netIsolated: r.isolation.network === 'netns' ? 1 : 0,
      lines: source.split('\n').length,
      bytes: Buffer.byteLength(source),
    },
  };
}

/** Limits from the environment: DB8_SANDBOX_TIMEOUT_MS, DB8_SANDBOX_MEMORY_MB (else the defaults). */
export function sandboxLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Partial<SandboxLimits> {
  const n = (v: string | undefined) =>
    v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : undefined;
  const timeoutMs = n(env.DB8_SANDBOX_TIMEOUT_MS);
  const memoryMb = n(env.DB8_SANDBOX_MEMORY_MB);
  return { ...(timeoutMs ? { timeoutMs } : {}), ...(memoryMb ? { memoryMb } : {}) };
}
