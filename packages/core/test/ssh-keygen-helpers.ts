// Test-only helpers around the real `ssh-keygen` for interop tests. Missing ssh-keygen is a hard
// failure (install openssh-client), never a skip: these tests are the proof that we interoperate.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function requireSshKeygen(): void {
  const r = spawnSync('ssh-keygen', ['-?'], { encoding: 'utf8' });
  if (r.error) {
    throw new Error(
      `ssh-keygen is required for the SSH interop tests and was not found (${r.error.message}); ` +
        'install it: apt-get install -y openssh-client',
    );
  }
}

export type Run = { status: number | null; stdout: string; stderr: string };

export function sshKeygen(args: string[], opts: { cwd?: string; input?: string | Uint8Array } = {}): Run {
  // TZ=UTC: ssh-keygen prints and parses certificate times in local time.
  const env = { ...process.env, TZ: 'UTC' };
  const r = spawnSync('ssh-keygen', args, { cwd: opts.cwd, input: opts.input, encoding: 'utf8', env });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like sshKeygen, but throws with stderr unless it exits 0. */
export function sshKeygenOk(args: string[], opts: { cwd?: string; input?: string | Uint8Array } = {}): Run {
  const r = sshKeygen(args, opts);
  if (r.status !== 0) throw new Error(`ssh-keygen ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
}

export class TmpDir {
  readonly path = mkdtempSync(join(tmpdir(), 'db8-ssh-'));
  file(name: string): string {
    return join(this.path, name);
  }
  write(name: string, data: string | Uint8Array, mode = 0o600): string {
    const p = this.file(name);
    writeFileSync(p, data, { mode });
    return p;
  }
  read(name: string): string {
    return readFileSync(this.file(name), 'utf8');
  }
  /** New ed25519 key `name` (+ name.pub) made by ssh-keygen. */
  keygen(name: string, comment = name): string {
    const p = this.file(name);
    sshKeygenOk(['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', p]);
    return p;
  }
  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
