// The git journal (DB8_JOURNAL_GIT): a debate played to closed on the test server writes one commit
// per published round to refs/_db8/journal/<room> in a real temporary git repository; the files
// are the canonical payloads, signatures and chain, checked with git and the real ssh-keygen.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalize,
  ed25519,
  formatSshPublicKey,
  sha256Hex,
  signSshsig,
  toBase64,
  utf8Encode,
} from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebateView } from '../../rules/index.ts';
import { JOURNAL_NAMESPACE, journalRef } from '../../server/index.ts';
import { debateServer, type Signer, TIMINGS } from './debate-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-journal-git-'));
const repo = join(dir, 'journal.git');
let s: Awaited<ReturnType<typeof debateServer>>;

function run(cmd: string, args: string[], input?: string): string {
  try {
    return execFileSync(cmd, args, { cwd: repo, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')}: ${err.stderr || err.message} (is ${cmd} installed?)`);
  }
}

beforeAll(async () => {
  execFileSync('git', ['init', '-q', '--bare', repo]);
  s = await debateServer({ journalGit: repo });
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('debate journal in git', () => {
  it('commits each published round to refs/_db8/journal/<room>; the files verify with git and ssh-keygen', async () => {
    const room = await s.createDebate({ max_rounds: 1, timings: TIMINGS });
    const R = room.room_id;
    const seats = await s.seatEveryone(R);
    const key = ed25519.keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const cert = await s.call('POST', `/v1/rooms/${R}/certs`, {
      token: seats.get('anon_3')!.token,
      body: { public_key: formatSshPublicKey(key.publicKey) },
    });
    const signer: Signer = (bytes) => ({
      signature_kind: 'ssh',
      signature_b64: toBase64(
        utf8Encode(
          signSshsig({
            seed: key.seed,
            namespace: 'db8',
            message: bytes,
            certificate: cert.body.certificate,
          }),
        ),
      ),
    });
    await s.playToClose(R, seats, new Map([['anon_3', signer]]));
    await s.plugin.journal!.flush();

    const ref = journalRef(R);
    const log = run('git', ['log', '--format=%s', ref]).trim().split('\n');
    expect(log).toEqual([
      expect.stringMatching(new RegExp(`^${R} final round \\(FINAL\\) published at seq \\d+$`)),
      expect.stringMatching(new RegExp(`^${R} round 1 \\(OPENING\\) published at seq \\d+$`)),
    ]);
    const files = run('git', ['ls-tree', '-r', '--name-only', ref]).trim().split('\n');
    for (const f of ['round-1/round.chain', 'round-1/round.chain.sig', 'round-2/round.chain'])
      expect(files).toContain(f);
    expect(files).toContain('round-1/submissions/anon_3.ssh.sig');
    expect(files).not.toContain('round-1/submissions/anon_1.ssh.sig'); // unsigned: server-attested

    const st = await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin });
    const view = st.body.view as DebateView;
    for (const r of view.rounds) {
      const base = `${ref}:round-${r.index}`;
      expect(run('git', ['show', `${base}/round.chain`])).toBe(`${r.chain!.head}\n`);
      for (const sub of r.submissions) {
        const text = run('git', ['show', `${base}/submissions/${sub.author}.json`]);
        expect(text).toBe(canonicalize(sub.payload!));
        expect(sha256Hex(utf8Encode(text))).toBe(sub.canonical_sha256);
        const meta = JSON.parse(run('git', ['show', `${base}/submissions/${sub.author}.meta.json`]));
        expect(meta).toMatchObject({ canonical_sha256: sub.canonical_sha256, status: sub.status });
      }
    }

    // The chain signature and anon_3's certificate signature, checked by the real ssh-keygen.
    const chainFile = join(dir, 'round.chain');
    writeFileSync(chainFile, run('git', ['show', `${ref}:round-1/round.chain`]));
    writeFileSync(join(dir, 'round.chain.sig'), run('git', ['show', `${ref}:round-1/round.chain.sig`]));
    const server = formatSshPublicKey(s.serverKey.publicKey);
    writeFileSync(join(dir, 'allowed_signers'), `db8-server namespaces="${JOURNAL_NAMESPACE}" ${server}\n`);
    const verify = (signers: string, id: string, ns: string, sig: string, msg: string, at?: number) =>
      run(
        'ssh-keygen',
        [
          '-Y',
          'verify',
          '-f',
          signers,
          '-I',
          id,
          '-n',
          ns,
          '-s',
          sig,
          // A certificate is judged at the time the entry was made (the test clock), not today.
          ...(at !== undefined
            ? ['-O', `verify-time=${new Date(at).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`]
            : []),
        ],
        msg,
      );
    expect(
      verify(
        join(dir, 'allowed_signers'),
        'db8-server',
        JOURNAL_NAMESPACE,
        join(dir, 'round.chain.sig'),
        `${view.rounds[0]!.chain!.head}\n`,
      ),
    ).toContain('Good');
    expect(() =>
      verify(
        join(dir, 'allowed_signers'),
        'db8-server',
        JOURNAL_NAMESPACE,
        join(dir, 'round.chain.sig'),
        `${'0'.repeat(64)}\n`,
      ),
    ).toThrow();
    writeFileSync(
      join(dir, 'anon_3.ssh.sig'),
      run('git', ['show', `${ref}:round-1/submissions/anon_3.ssh.sig`]),
    );
    writeFileSync(join(dir, 'ca_signers'), `anon_3@${R} cert-authority ${server}\n`);
    const payload = run('git', ['show', `${ref}:round-1/submissions/anon_3.json`]);
    const at = view.rounds[0]!.submissions.find((x) => x.author === 'anon_3')!.submitted_at!;
    expect(
      verify(join(dir, 'ca_signers'), `anon_3@${R}`, 'db8', join(dir, 'anon_3.ssh.sig'), payload, at),
    ).toContain('Good');

    // Syncing again writes nothing; the ref is only ever moved forward from the value it was read at.
    const head = run('git', ['rev-parse', ref]).trim();
    await s.plugin.journal!.sync(R);
    expect(run('git', ['rev-parse', ref]).trim()).toBe(head);
  }, 120_000);
});
