import { extendChain, submissionSha256, ZERO_CHAIN } from '@db8/protocols/debate';
import type { DebateView } from './model.ts';

// The journal badge's check, done here rather than trusted: every published submission's hash is
// recomputed from its content (RFC 8785 bytes), each round's chain link list must be exactly those
// hashes in seat order, and chain_i = sha256(chain_{i-1} ‖ h_i) must lead to the head the room
// reports (docs/debate.md, "The reveal and the checkpoint chain").

export type ChainCheck =
  | { ok: true; head: string; rounds: number; submissions: number }
  | { ok: false; reason: string };

export function checkChain(view: DebateView): ChainCheck {
  let head = ZERO_CHAIN;
  let rounds = 0;
  let submissions = 0;
  for (const r of view.rounds) {
    if (r.published_at === null) continue;
    const where = r.kind === 'final' ? 'final round' : `round ${r.index}`;
    if (!r.chain) return { ok: false, reason: `${where} is published without a chain` };
    if (r.chain.prev !== head) return { ok: false, reason: `${where} does not continue the chain` };
    const hashes: string[] = [];
    for (const row of r.submissions) {
      if (row.status === 'forfeit') continue;
      if (!row.payload) continue;
      const sha = submissionSha256(row.payload);
      if (row.canonical_sha256 !== undefined && row.canonical_sha256 !== sha) {
        return { ok: false, reason: `${row.author}'s ${where} content does not hash to its sha256` };
      }
      const link = r.chain.links[hashes.length];
      if (!link || link.author !== row.author || link.sha256 !== sha) {
        return { ok: false, reason: `${where}: ${row.author}'s submission is not the chain's link` };
      }
      hashes.push(sha);
    }
    if (hashes.length !== r.chain.links.length) return { ok: false, reason: `${where} has unknown links` };
    head = extendChain(head, hashes);
    if (head !== r.chain.head) return { ok: false, reason: `${where}'s head does not recompute` };
    rounds++;
    submissions += hashes.length;
  }
  if (head !== view.journal.chain) return { ok: false, reason: 'the room reports another chain head' };
  if (view.results && view.results.chain !== head)
    return { ok: false, reason: 'the results name another head' };
  return { ok: true, head, rounds, submissions };
}
