import { type ChainCheck, type ChainRound, checkRoundChain, submissionSha256 } from '../rules/index.ts';
import type { DebateView } from './model.ts';

// The journal badge's check, done here rather than trusted: every published submission's hash is
// recomputed from its content (RFC 8785 bytes) and the round chain from those hashes, by the same
// checkRoundChain `db8 debate verify` runs over a journal bundle (docs/debate.md, "The reveal and
// the checkpoint chain"). The view's own claims (per-row hash, links, heads) are only compared.

export type { ChainCheck };

export function checkChain(view: DebateView): ChainCheck {
  const rounds: ChainRound[] = [];
  for (const r of view.rounds) {
    if (r.published_at === null) continue;
    const label = r.kind === 'final' ? 'final round' : `round ${r.index}`;
    if (!r.chain) return { ok: false, reason: `${label} is published without a chain` };
    const submissions: Array<ChainRound['submissions'][number]> = [];
    for (const row of r.submissions) {
      if (row.status === 'forfeit' || !row.payload) continue;
      if (row.canonical_sha256 !== undefined && row.canonical_sha256 !== submissionSha256(row.payload))
        return { ok: false, reason: `${row.author}'s ${label} content does not hash to its sha256` };
      submissions.push({ author: row.author, payload: row.payload });
    }
    rounds.push({ label, submissions, claimed: r.chain });
  }
  const check = checkRoundChain(rounds);
  if (!check.ok) return check;
  if (check.head !== view.journal.chain) return { ok: false, reason: 'the room reports another chain head' };
  if (view.results && view.results.chain !== check.head)
    return { ok: false, reason: 'the results name another head' };
  return check;
}
