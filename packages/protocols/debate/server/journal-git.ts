import { execFile } from 'node:child_process';
import { canonicalize, utf8Encode } from '@db8/core';
import type { ModuleRuntime } from '@db8/server/kit';
import type { DebateView, RoundView } from '../rules/index.ts';

/**
 * The debate journal as a git ref (seed §5 "Commit to ShipLog"): when a round is published, one
 * commit on `refs/_db8/journal/<room>` adds that round's directory, written with git plumbing only
 * (hash-object, mktree, commit-tree, update-ref with the old value, so two nodes cannot both move
 * the ref). Each commit's tree holds every published round so far:
 *
 *   round-<k>/submissions/<author>.json       canonical payload (RFC 8785, what was hashed and signed)
 *   round-<k>/submissions/<author>.ssh.sig    the author's SSHSIG, when signed with SSH
 *   round-<k>/submissions/<author>.meta.json  canonical_sha256, status, version, signature kind, fingerprint, verdict
 *   round-<k>/round.chain                     chain_k, hex (docs/debate.md "The reveal and the checkpoint chain")
 *   round-<k>/round.chain.sig                 SSHSIG of round.chain by the server key, namespace db8-journal
 *
 * `ssh-keygen -Y verify -n db8-journal -I db8-server -f allowed_signers -s round.chain.sig < round.chain`
 * checks a chain with the server's public key (`server_ed25519.pub`).
 */

export const JOURNAL_NAMESPACE = 'db8-journal';
export const journalRef = (roomId: string) => `refs/_db8/journal/${roomId}`;

type JournalRuntime = Pick<ModuleRuntime, 'getRoom' | 'stateFor' | 'serverKey'>;

function git(repo: string, args: string[], input?: string, env?: NodeJS.ProcessEnv): Promise<string> {
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
    const published = (view as DebateView).rounds.filter((r) => r.published_at !== null);
    const ref = journalRef(roomId);
    let head = (await git(this.repo, ['rev-parse', '--verify', '-q', ref]).catch(() => '')).trim();
    const done = head
      ? (await git(this.repo, ['ls-tree', '--name-only', head])).split('\n').filter(Boolean)
      : [];
    const have = new Set(done);
    const rounds: TreeEntry[] = [];
    for (const name of done) {
      const sha = (await git(this.repo, ['rev-parse', `${head}:${name}`])).trim();
      rounds.push({ mode: '040000', type: 'tree', sha, name });
    }
    for (const r of published) {
      const name = `round-${r.index}`;
      if (have.has(name)) continue;
      rounds.push({ mode: '040000', type: 'tree', sha: await this.roundTree(r), name });
      const tree = await this.mktree(rounds);
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

  private async blob(text: string): Promise<string> {
    return (await git(this.repo, ['hash-object', '-w', '--stdin'], text)).trim();
  }

  private async mktree(entries: TreeEntry[]): Promise<string> {
    const lines = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}`).join('\n');
    return (await git(this.repo, ['mktree'], lines ? `${lines}\n` : '')).trim();
  }

  private async roundTree(r: RoundView): Promise<string> {
    const subs: TreeEntry[] = [];
    const file = async (name: string, text: string) =>
      subs.push({ mode: '100644', type: 'blob', sha: await this.blob(text), name });
    for (const s of r.submissions) {
      const meta = {
        author: s.author,
        status: s.status,
        version: s.version,
        seq: s.seq,
        canonical_sha256: s.canonical_sha256 ?? null,
        signature_kind: s.signature?.kind ?? null,
        signer_fingerprint: s.signature?.signer_fingerprint ?? null,
        via: s.signature?.via ?? null,
        verdict: s.verdict ?? null,
      };
      await file(`${s.author}.meta.json`, `${canonicalize(meta)}\n`);
      if (s.payload) await file(`${s.author}.json`, canonicalize(s.payload));
      if (s.signature?.kind === 'ssh' && s.signature.signature_b64) {
        await file(`${s.author}.ssh.sig`, Buffer.from(s.signature.signature_b64, 'base64').toString('utf8'));
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
