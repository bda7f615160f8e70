import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * What this machine offers the deliberation sandbox (docs/deliberation.md#sandbox), probed once:
 * bubblewrap, prlimit, this node binary and the shared libraries both need, and whether a tiny
 * sandbox actually starts here under the uid it will run as. Nothing here falls back to running
 * code without the sandbox: a failed probe is a reason to refuse (SANDBOX_UNAVAILABLE).
 */

/** The uid and gid of `nobody`: a server running as root starts the sandbox as this user. */
export const NOBODY = 65534;

/** Where things are inside the sandbox: its one writable dir (a tmpfs) and the files put there. */
export const WORK_DIR = '/sandbox';

export interface SandboxHost {
  bwrap: string;
  prlimit: string;
  node: string;
  /** Read-only binds, host path → path inside: the two binaries and their libraries, nothing else. */
  binds: [string, string][];
  /** Whom bwrap runs as: nobody when the server is root (so RLIMIT_NPROC applies), else the server's uid. */
  runAs: 'nobody' | 'server';
  user: { uid: number; gid: number } | null;
}

export type SandboxProbe = { ok: true; host: SandboxHost } | { ok: false; reason: string };

export interface HostOptions {
  /** The bubblewrap binary (default `bwrap` on PATH; DB8_SANDBOX_BWRAP). */
  bwrapPath?: string;
  /** The node binary the code runs on (default this process's). */
  nodePath?: string;
}

export interface Limits {
  timeoutMs: number;
  memoryMb: number;
  fileBytes: number;
  diskBytes: number;
  processes: number;
}

function which(name: string): string | null {
  if (isAbsolute(name)) return name;
  for (const dir of (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

/** The shared libraries a binary loads, as `ldd` resolves them (none for a static binary). */
function librariesOf(binary: string): string[] {
  const r = spawnSync('ldd', [binary], { encoding: 'utf8', timeout: 5000 });
  if (r.error) throw new Error(`ldd: ${r.error.message}`);
  if (r.status !== 0) {
    if (/not a dynamic executable|statically linked/.test(`${r.stdout}${r.stderr}`)) return [];
    throw new Error(`ldd ${binary}: ${(r.stderr || r.stdout).trim()}`);
  }
  const libs: string[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (m) libs.push(m[1]!);
    else if (/=>\s*not found/.test(line)) throw new Error(`ldd ${binary}: ${line.trim()}`);
  }
  return libs;
}

function bindsFor(binaries: string[]): [string, string][] {
  const binds = new Map<string, string>();
  for (const bin of binaries) {
    binds.set(bin, realpathSync(bin));
    for (const lib of librariesOf(bin)) binds.set(lib, realpathSync(lib));
  }
  return [...binds].map(([inside, host]) => [host, inside]);
}

/**
 * The sandbox's command line: bwrap with every namespace new (user, pid, mount, ipc, uts, network,
 * cgroup), no further user namespaces, a new session, dies with its parent, no capabilities, an
 * empty environment, a read-only root holding only the binaries and their libraries, a fresh
 * minimal read-only /dev, no /proc, and one writable tmpfs of `diskBytes`; then prlimit (set inside, so
 * RLIMIT_NPROC counts the sandbox's own processes only) and node.
 */
export function bwrapArgs(
  host: SandboxHost,
  limits: Limits,
  inner: string[],
  extra: string[] = [],
): string[] {
  const dataBytes = (limits.memoryMb + 192) * 1024 * 1024; // heap + code, stacks and the runtime's own
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--as-pid-1',
    '--cap-drop',
    'ALL',
    '--hostname',
    'db8-sandbox',
    '--clearenv',
    '--setenv',
    'HOME',
    WORK_DIR,
    '--setenv',
    'PATH',
    '/usr/bin',
    ...host.binds.flatMap(([src, dest]) => ['--ro-bind', src, dest]),
    '--dev',
    '/dev',
    '--size',
    String(limits.diskBytes),
    '--tmpfs',
    WORK_DIR,
    ...extra,
    // bwrap's root and /dev are tmpfs mounts of their own, writable and without a size: read-only
    // once everything is in place (not recursive, so /sandbox stays writable).
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    WORK_DIR,
    '--',
    host.prlimit,
    `--as=${dataBytes + 1024 * 1024 * 1024}`, // node alone reserves ~700 MiB of address space
    `--data=${dataBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileBytes}`,
    `--cpu=${Math.ceil(limits.timeoutMs / 1000) + 1}`,
    '--nofile=256',
    '--core=0',
    '--',
    host.node,
    ...inner,
  ];
}

const PROBE_MARK = 'db8-sandbox-probe-ok';
const PROBE_LIMITS: Limits = {
  timeoutMs: 10_000,
  memoryMb: 64,
  fileBytes: 1024 * 1024,
  diskBytes: 1024 * 1024,
  processes: 64,
};

function tryHost(host: SandboxHost): string | null {
  const r = spawnSync(
    host.bwrap,
    bwrapArgs(host, PROBE_LIMITS, ['-e', `process.stdout.write(${JSON.stringify(PROBE_MARK)})`]),
    {
      encoding: 'utf8',
      timeout: 10_000,
      env: {},
      ...(host.user ? { uid: host.user.uid, gid: host.user.gid } : {}),
    },
  );
  if (r.error) return r.error.message;
  if (r.status === 0 && r.stdout === PROBE_MARK) return null;
  return (r.stderr || r.stdout || `exit ${r.status ?? r.signal}`).trim().slice(0, 500);
}

const probes = new Map<string, SandboxProbe>();

/** Whether a real sandbox starts on this machine, and how (probed once per binary set). */
export function probeSandbox(opts: HostOptions = {}): SandboxProbe {
  const key = `${opts.bwrapPath ?? ''}\0${opts.nodePath ?? ''}`;
  const known = probes.get(key);
  if (known) return known;
  const result = probe(opts);
  probes.set(key, result);
  return result;
}

function probe(opts: HostOptions): SandboxProbe {
  const bwrap = which(opts.bwrapPath ?? 'bwrap');
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
  const prlimit = which('prlimit');
  if (!prlimit) return { ok: false, reason: 'prlimit (util-linux) is not installed' };
  try {
    createRequire(import.meta.url).resolve('esbuild');
  } catch {
    return { ok: false, reason: 'esbuild (which builds the tests module) is not installed' };
  }
  let binds: [string, string][];
  const node = opts.nodePath ?? process.execPath;
  try {
    binds = bindsFor([node, prlimit]);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  const base = { bwrap, prlimit, node, binds };
  const candidates: SandboxHost[] =
    process.getuid?.() === 0
      ? [
          { ...base, runAs: 'nobody', user: { uid: NOBODY, gid: NOBODY } },
          { ...base, runAs: 'server', user: null },
        ]
      : [{ ...base, runAs: 'server', user: null }];
  const reasons: string[] = [];
  for (const host of candidates) {
    const failed = tryHost(host);
    if (failed === null) return { ok: true, host };
    reasons.push(`as ${host.runAs}: ${failed}`);
  }
  return { ok: false, reason: `bubblewrap cannot start a sandbox here (${reasons.join('; ')})` };
}
