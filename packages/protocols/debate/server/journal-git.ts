import { execFile } from 'node:child_process';
import { canonicalize, encodeSshEd25519PublicKey, fromHex, sshFingerprint, utf8Encode } from '@db8/core';
import type { ModuleRuntime } from '@db8/server/kit';
import type { DebateState, DebateView, RoundView } from '../rules/index.ts';
import { allowedSigners, caLines, mergeTrust, TRUST_REF } from './trust-ref.ts';

/**
 * The debate journal as a git ref (seed §5 "Commit to ShipLog"): when a round is published, one
 * commit on `refs/_db8/journal/<room>` adds that round's directory, written with git plumbing only
 * (hash-object, mktree, commit-tree, update-ref with the old value, so two nodes cannot both move
 * the ref). Each commit's tree holds every published round so far:
 *
 *   round-<k>/submissions/<author>.json       canonical payload (RFC 8785, what was hashed and signed)
 *   allowed_signers                           who may sign what, for `ssh-keygen -Y verify` (trust-ref.ts)
 *   round-<k>/submissions/<author>.ssh.sig    the author's SSHSIG, when signed with SSH
 *   round-<k>/submissions/<author>.signed.json the exact bytes signed, when not the canonical form
 *                                             (seed CLI: `jq -S .` output); parses to <author>.json
 *   round-<k>/submissions/<author>.ed25519.sig base64 of a browser Ed25519 signature over the signed bytes
 *   round-<k>/submissions/<author>.ed25519.pub.pem  the key that made it (SPKI PEM, for openssl)
 *   round-<k>/submissions/<author>.meta.json  canonical_sha256, status, version, signature kind, fingerprint, verdict
 *   round-<k>/round.chain                     chain_k, hex (docs/debate.md "The reveal and the checkpoint chain")
 *   round-<k>/round.chain.sig                 SSHSIG of round.chain by the server key, namespace db8-journal
 *
 * `ssh-keygen -Y verify -n db8-journal -I db8-server -f allowed_signers -s round.chain.sig < round.chain`
 * checks a chain with the server's public key (`server_ed25519.pub`). The trust ref
 * `refs/_db8/trust/ssh_ca.pub` holds the authors' CA keys (docs/debate.md, "Verifying the git journal").
 */

export const JOURNAL_NAMESPACE = 'db8-journal';
export const journalRef = (roomId: string) => `refs/_db8/journal/${roomId}`;

type JournalRuntime = Pick<ModuleRuntime, 'getRoom' | 'stateFor' | 'serverKey' | 'protocolState'>;

const ED25519_SPKI = '302a300506032b6570032100';
/** A raw Ed25519 key as the SPKI PEM `openssl pkeyutl -verify -pubin -inkey` reads. */
export function ed25519Pem(hex: string): string {
  const b64 = Buffer.from(ED25519_SPKI + hex, 'hex').toString('base64');
  return `-----BEGIN PUBLIC KEY-----\n${b64}\n-----END PUBLIC KEY-----\n`;
}

function git(
  repo: string,
  args: string[],
  input?: string | Buffer,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd: repo, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args[0]}: ${stderr.trim() || err.message}`));
        else resolve(stdout);
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

type TreeEntry = { mode: '100644' | '040000'; type: 'blob' | 'tree'; sha: string; name: string };

export class DebateJournalGit {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly repo: string,
    private readonly runtime: JournalRuntime,
    private readonly onError: (err: unknown, roomId: string) => void = () => {},
  ) {}

  /** Bring the room's ref up to date (queued per room; errors go to onError). */
  sync(roomId: string): Promise<void> {
    const prev = this.queues.get(roomId) ?? Promise.resolve();
    const next = prev
      .then(() => this.write(roomId))
      .catch((err) => this.onError(err, roomId))
      .finally(() => {
        if (this.queues.get(roomId) === next) this.queues.delete(roomId);
      });
    this.queues.set(roomId, next);
    return next;
  }

  /** Wait for every queued write (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  private async write(roomId: string): Promise<void> {
    const room = await this.runtime.getRoom(roomId);
    if (room.protocol !== 'debate') return;
    const { view } = await this.runtime.stateFor(roomId, { kind: 'admin' });
    const state = (await this.runtime.protocolState(roomId)).state as DebateState;
    const published = (view as DebateView).rounds.filter((r) => r.published_at !== null);
    if (published.length === 0) return;
    await this.writeTrust(caLines(state));
    const ref = journalRef(roomId);
    let head = (await git(this.repo, ['rev-parse', '--verify', '-q', ref]).catch(() => '')).trim();
    const done = head
      ? (await git(this.repo, ['ls-tree', '--name-only', head]))
          .split('\n')
          .filter((n) => n.startsWith('round-'))
      : [];
    const seats = [
      ...new Set([
        ...published.flatMap((r) => r.submissions.map((x) => x.author)),
        ...Object.keys(state.keys),
      ]),
    ].sort();
    const signers: TreeEntry = {
      mode: '100644',
      type: 'blob',
      sha: await this.blob(
        allowedSigners(state, roomId, seats, this.runtime.serverKey.publicKey, JOURNAL_NAMESPACE),
      ),
      name: 'allowed_signers',
    };
    const have = new Set(done);
    const rounds: TreeEntry[] = [];
    for (const name of done) {
      const sha = (await git(this.repo, ['rev-parse', `${head}:${name}`])).trim();
      rounds.push({ mode: '040000', type: 'tree', sha, name });
    }
    for (const r of published) {
      const name = `round-${r.index}`;
      if (have.has(name)) continue;
      rounds.push({ mode: '040000', type: 'tree', sha: await this.roundTree(r, state), name });
      const tree = await this.mktree([signers, ...rounds]);
      const when = `${Math.floor((r.published_at ?? 0) / 1000)} +0000`;
      const msg = `${roomId} ${r.kind === 'final' ? 'final round' : `round ${r.index}`} (${r.label}) published at seq ${r.published_seq}\n\nchain ${r.chain?.head ?? ''}\n`;
      const commit = (
        await git(this.repo, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-F', '-'], msg, {
          GIT_AUTHOR_NAME: 'db8',
          GIT_AUTHOR_EMAIL: 'db8@localhost',
          GIT_AUTHOR_DATE: when,
          GIT_COMMITTER_NAME: 'db8',
          GIT_COMMITTER_EMAIL: 'db8@localhost',
          GIT_COMMITTER_DATE: when,
        })
      ).trim();
      // The old value makes this a compare-and-swap: another writer's commit is never overwritten.
      await git(this.repo, ['update-ref', ref, commit, head || '0'.repeat(40)]);
      head = commit;
    }
  }

  /** Add CA keys to the trust ref (a ref to a blob), moved only from the value it was read at. */
  private async writeTrust(lines: readonly string[]): Promise<void> {
    const old = (await git(this.repo, ['rev-parse', '--verify', '-q', TRUST_REF]).catch(() => '')).trim();
    const current = old ? await git(this.repo, ['cat-file', 'blob', old]) : '';
    const next = mergeTrust(current, lines);
    if (next === current) return;
    await git(this.repo, ['update-ref', TRUST_REF, await this.blob(next), old || '0'.repeat(40)]);
  }

  private async blob(text: string | Buffer): Promise<string> {
    return (await git(this.repo, ['hash-object', '-w', '--stdin'], text)).trim();
  }

  private async mktree(entries: TreeEntry[]): Promise<string> {
    const lines = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}`).join('\n');
    return (await git(this.repo, ['mktree'], lines ? `${lines}\n` : '')).trim();
  }

  private async roundTree(r: RoundView, state: DebateState): Promise<string> {
    const subs: TreeEntry[] = [];
    const file = async (name: string, text: string | Buffer) =>
      subs.push({ mode: '100644', type: 'blob', sha: await this.blob(text), name });
    for (const s of r.submissions) {
      const meta = {
        author: s.author,
        status: s.status,
        version: s.version,
        seq: s.seq,
        submitted_at: s.submitted_at ?? null,
        canonical_sha256: s.canonical_sha256 ?? null,
        signature_kind: s.signature?.kind ?? null,
        signer_fingerprint: s.signature?.signer_fingerprint ?? null,
        via: s.signature?.via ?? null,
        verdict: s.verdict ?? null,
      };
      await file(`${s.author}.meta.json`, `${canonicalize(meta)}\n`);
      if (s.payload) await file(`${s.author}.json`, canonicalize(s.payload));
      const sig = s.signature;
      if (sig?.signed_b64) await file(`${s.author}.signed.json`, Buffer.from(sig.signed_b64, 'base64'));
      if (sig?.kind === 'ssh' && sig.signature_b64) {
        await file(`${s.author}.ssh.sig`, Buffer.from(sig.signature_b64, 'base64').toString('utf8'));
      }
      if (sig?.kind === 'ed25519' && sig.signature_b64) {
        await file(`${s.author}.ed25519.sig`, `${sig.signature_b64}\n`);
        const key = (state.keys[s.author] ?? []).find(
          (k) => sshFingerprint(encodeSshEd25519PublicKey(fromHex(k))) === sig.signer_fingerprint,
        );
        if (key) await file(`${s.author}.ed25519.pub.pem`, ed25519Pem(key));
      }
    }
    const chain = `${r.chain?.head ?? ''}\n`;
    const top: TreeEntry[] = [
      { mode: '040000', type: 'tree', sha: await this.mktree(subs), name: 'submissions' },
      { mode: '100644', type: 'blob', sha: await this.blob(chain), name: 'round.chain' },
      {
        mode: '100644',
        type: 'blob',
        sha: await this.blob(this.runtime.serverKey.sshsig(utf8Encode(chain), JOURNAL_NAMESPACE)),
        name: 'round.chain.sig',
      },
    ];
    return this.mktree(top);
  }
}
