import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { ResultChannel } from './sandbox-channel.ts';
import { bwrapArgs, type Limits, type SandboxHost, WORK_DIR } from './sandbox-host.ts';

/**
 * One sandboxed node process (sandbox.ts builds what it runs): bwrap with the files given on
 * descriptors (`--ro-bind-data`, so they are read-only inside and nothing is written to the
 * host's disk), the nonce on stdin, verdicts read from fd 3, the sandbox's host pid from bwrap's
 * `--info-fd`. Killed at the wall-clock limit, when its RSS passes the memory bound, or as soon as
 * the harness has said `done`: SIGKILL to bwrap's process group and to the sandboxed pid (the pid
 * namespace dies with it, and bwrap's --die-with-parent takes it down if this server dies).
 */

export interface SandboxFiles {
  runner: string;
  suite: string;
  solution: string;
}

export interface ProcessRun {
  channel: ResultChannel;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  killedFor: 'timeout' | 'memory' | null;
  /** bwrap reported the sandbox running (else it never started: the host's fault, not the code's). */
  started: boolean;
  peakRssKb: number;
  durationMs: number;
}

export interface ProcessOptions {
  host: SandboxHost;
  limits: Limits & { outputBytes: number };
  files: SandboxFiles;
  nonce: string;
  /** Node's permission model inside (default on; tests turn it off to show bwrap alone holds). */
  nodePermissions: boolean;
}

// Descriptors of the bwrap process: 0 nonce, 1/2 output, 3 verdicts, 4 bwrap's info, 5–7 files.
const FD = { results: 3, info: 4, runner: 5, suite: 6, solution: 7 } as const;

function rssKb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then(
    (s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0),
    () => 0,
  );
}

function nodeArgs(memoryMb: number, permissions: boolean): string[] {
  return [
    '--frozen-intrinsics',
    // Inline bounds checks instead of 10 GiB reservations per WebAssembly memory, which RLIMIT_AS
    // would refuse (undici, behind fetch/Response/Headers, is WebAssembly).
    '--disable-wasm-trap-handler',
    ...(permissions
      ? ['--experimental-permission', `--allow-fs-read=${WORK_DIR}`, `--allow-fs-write=${WORK_DIR}`]
      : []),
    `--max-old-space-size=${memoryMb}`,
    '--max-semi-space-size=16',
    '--no-warnings',
    `${WORK_DIR}/runner.mjs`,
  ];
}

export function runProcess(o: ProcessOptions): Promise<ProcessRun> {
  const { host, limits } = o;
  const extra = [
    '--ro-bind-data',
    String(FD.runner),
    `${WORK_DIR}/runner.mjs`,
    '--ro-bind-data',
    String(FD.suite),
    `${WORK_DIR}/suite.mjs`,
    '--ro-bind-data',
    String(FD.solution),
    `${WORK_DIR}/solution.mjs`,
    '--info-fd',
    String(FD.info),
  ];
  const started = Date.now();
  const child = spawn(
    host.bwrap,
    bwrapArgs(host, limits, nodeArgs(limits.memoryMb, o.nodePermissions), extra),
    {
      env: {},
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
      ...(host.user ? { uid: host.user.uid, gid: host.user.gid } : {}),
    },
  );
  let stdout = '';
  let stderr = '';
  let info = '';
  let sandboxPid: number | null = null;
  let killedFor: ProcessRun['killedFor'] = null;
  let peak = 0;
  let exited = false;
  // Only while bwrap has not been reaped: after that its pid (and group id) may belong to another.
  const killAll = () => {
    if (exited) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
    if (sandboxPid !== null)
      try {
        process.kill(sandboxPid, 'SIGKILL');
      } catch {}
  };
  const kill = (why: 'timeout' | 'memory') => {
    if (killedFor) return;
    killedFor = why;
    killAll();
  };
  const channel = new ResultChannel(o.nonce, killAll);
  const send = (fd: number, text: string) => {
    const s = child.stdio[fd] as Writable;
    s.on('error', () => {}); // the sandbox may be gone before it reads: nothing to do
    s.end(text);
  };
  for (const fd of [1, 2, FD.results, FD.info]) child.stdio[fd]?.on('error', () => {});
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < limits.outputBytes * 4) stdout += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < limits.outputBytes) stderr += d;
  });
  (child.stdio[FD.results] as Readable).setEncoding('utf8').on('data', (d: string) => channel.push(d));
  (child.stdio[FD.info] as Readable).setEncoding('utf8').on('data', (d: string) => {
    if (info.length > 4096) return;
    info += d;
    const pid = Number(/"child-pid"\s*:\s*(\d+)/.exec(info)?.[1]);
    if (sandboxPid === null && pid > 0) sandboxPid = pid;
  });
  send(0, `${o.nonce}\n`);
  send(FD.runner, o.files.runner);
  send(FD.suite, o.files.suite);
  send(FD.solution, o.files.solution);
  const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
  const rssLimitKb = (limits.memoryMb + 192) * 1024;
  const watch = setInterval(() => {
    if (sandboxPid === null) return;
    void rssKb(sandboxPid).then((kb) => {
      peak = Math.max(peak, kb);
      if (kb > rssLimitKb) kill('memory');
    });
  }, 25);
  return new Promise((resolve) => {
    child.on('error', (e) => {
      stderr += `\n${e.message}`;
    });
    child.on('exit', () => {
      exited = true;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({
        channel,
        stdout,
        stderr,
        exitCode: code,
        signal,
        killedFor,
        started: sandboxPid !== null,
        peakRssKb: peak,
        durationMs: Date.now() - started,
      });
    });
  });
}
