import { extendChain, ZERO_CHAIN } from './rules.ts';
import { type CanonicalPayload, type SubmitAction, submissionSha256 } from './submission.ts';

/**
 * The one round-chain check (seed §5, docs/debate.md "The reveal and the checkpoint chain"): the
 * web room's journal badge and `db8 debate verify` both recompute the chain here, from revealed
 * submissions alone. Each round's published submissions are hashed (RFC 8785 bytes) and folded in
 * seat order: chain_i = sha256(chain_{i-1} ‖ h_i). A round may carry the chain the server claims
 * for it (prev, links, head); every claim must be exactly what the content recomputes.
 */

export interface ChainRound {
  /** How failures name the round, e.g. `round 1`, `final round`, `seq 42`. */
  label: string;
  /** The round's published submissions (forfeits have none), any order: they are taken in seat order. */
  submissions: ReadonlyArray<{ author: string; payload: SubmitAction | CanonicalPayload }>;
  /** The chain the room reports for this round, when it reports one. */
  claimed?: { prev: string; links: ReadonlyArray<{ author: string; sha256: string }>; head: string };
}

export type ChainCheck =
  | { ok: true; head: string; rounds: number; submissions: number }
  | { ok: false; reason: string };

const seatNo = (author: string) => Number(author.split('_')[1] ?? Number.NaN);

export function checkRoundChain(rounds: readonly ChainRound[]): ChainCheck {
  let head = ZERO_CHAIN;
  let submissions = 0;
  for (const r of rounds) {
    const subs = [...r.submissions].sort((a, b) => seatNo(a.author) - seatNo(b.author));
    const hashes = subs.map((s) => submissionSha256(s.payload));
    const c = r.claimed;
    if (c) {
      if (c.prev !== head) return { ok: false, reason: `${r.label} does not continue the chain` };
      for (const [i, s] of subs.entries()) {
        const link = c.links[i];
        if (!link || link.author !== s.author || link.sha256 !== hashes[i])
          return { ok: false, reason: `${r.label}: ${s.author}'s submission is not the chain's link` };
      }
      if (hashes.length !== c.links.length) return { ok: false, reason: `${r.label} has unknown links` };
    }
    head = extendChain(head, hashes);
    if (c && head !== c.head) return { ok: false, reason: `${r.label}'s head does not recompute` };
    submissions += hashes.length;
  }
  return { ok: true, head, rounds: rounds.length, submissions };
}
