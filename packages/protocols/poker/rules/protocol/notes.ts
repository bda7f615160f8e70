import { canonicalize, fromHex, sha256Hex } from '@db8/core';
import { z } from 'zod';
import { deckCommitment, deckForHand, saltForHand, verifyDeckCommitment } from '../deck.ts';
import type { TableState } from './state.ts';

/**
 * The deck's commitment and reveal, in the log itself (Transition.note → the entry's public
 * `note`): the entry that deals hand h carries `{hand, deck_commitment}`, the entry that ends it
 * `{hand, deck, salt}` (both at once when the blinds put everyone all-in). So an exported journal
 * alone proves every deck was fixed before the first card and — once the close entry reveals the
 * room seed — that it was the seed's shuffle. `verifyDeckNotes` checks exactly that.
 */

const int = z.number().int().min(1);
export const HandNoteSchema = z.strictObject({
  hand: int,
  deck_commitment: z.string().optional(),
  deck: z.array(z.string()).optional(),
  salt: z.string().optional(),
});
export type HandNote = z.infer<typeof HandNoteSchema>;

/** The note for a transition from `prev` to `next`: a deal, a hand's end, both, or nothing. */
export function handNote(prev: TableState, next: TableState): HandNote | undefined {
  const lastDone = prev.recent.at(-1)?.number ?? 0;
  const ended = next.recent.find((h) => h.number > lastDone);
  const started = next.handsStarted > prev.handsStarted ? next.handsStarted : null;
  if (started === null && !ended) return undefined;
  const hand = started ?? ended!.number;
  const note: HandNote = { hand };
  if (started !== null) {
    const commitment = next.hand?.number === started ? next.hand.commitment : ended?.commitment;
    if (commitment !== undefined) note.deck_commitment = commitment;
  }
  if (ended) {
    note.deck = ended.deck.slice();
    note.salt = ended.salt;
  }
  return note;
}

/** An exported entry as this check needs it (journal `entry` records' public form). */
export interface NotedEntry {
  seq: number;
  kind: string;
  payload?: unknown;
  note?: unknown;
}

export interface DeckNotesReport {
  ok: boolean;
  /** Hands whose commitment the log holds. */
  committed: number;
  /** Hands whose revealed deck matched its commitment (and the seed, when known). */
  verified: number;
  /** The room seed used for the shuffle check (from the close entry, or given), or null. */
  seed: string | null;
  problems: string[];
}

/**
 * Checks a table's exported log: every hand is committed once, before (or in the same entry as)
 * its reveal; every revealed deck and salt hash to the committed commitment; once the room seed is
 * known (the close entry's payload, or `opts.seed`, checked against the genesis `seedCommit`) every
 * deck and salt are the seed's; a closed table has revealed every hand it dealt.
 */
export function verifyDeckNotes(
  entries: readonly NotedEntry[],
  opts: { seed?: string } = {},
): DeckNotesReport {
  const problems: string[] = [];
  const commitments = new Map<number, { seq: number; commitment: string }>();
  const revealed = new Set<number>();
  let verified = 0;
  const genesis = entries.find((e) => e.kind === 'genesis')?.payload as { seedCommit?: string } | undefined;
  const close = entries.find((e) => e.kind === 'close');
  let seed = opts.seed ?? (close?.payload as { seed?: string } | undefined)?.seed ?? null;
  if (seed !== null && genesis?.seedCommit !== undefined && sha256Hex(fromHex(seed)) !== genesis.seedCommit) {
    problems.push('the room seed does not match the genesis commitment');
    seed = null;
  }
  for (const e of entries) {
    if (e.note === undefined) continue;
    const parsed = HandNoteSchema.safeParse(e.note);
    if (!parsed.success) {
      problems.push(`seq ${e.seq}: the note is not a hand note`);
      continue;
    }
    const n = parsed.data;
    if (n.deck_commitment !== undefined) {
      const prior = commitments.get(n.hand);
      if (prior) problems.push(`seq ${e.seq}: hand ${n.hand} committed again (first at seq ${prior.seq})`);
      else commitments.set(n.hand, { seq: e.seq, commitment: n.deck_commitment });
    }
    if (n.deck === undefined && n.salt === undefined) continue;
    if (n.deck === undefined || n.salt === undefined) {
      problems.push(`seq ${e.seq}: hand ${n.hand} reveals a deck without its salt (or the reverse)`);
      continue;
    }
    if (revealed.has(n.hand)) problems.push(`seq ${e.seq}: hand ${n.hand} revealed again`);
    revealed.add(n.hand);
    const c = commitments.get(n.hand);
    let ok = true;
    if (!c) {
      problems.push(`seq ${e.seq}: hand ${n.hand} revealed without an earlier commitment`);
      ok = false;
    } else if (!verifyDeckCommitment(c.commitment, n.deck, n.salt)) {
      const why =
        deckCommitment(n.deck, n.salt) === c.commitment
          ? 'is not 52 distinct cards'
          : `does not hash to the commitment at seq ${c.seq}`;
      problems.push(`seq ${e.seq}: hand ${n.hand}'s revealed deck ${why}`);
      ok = false;
    }
    if (seed !== null) {
      if (canonicalize(n.deck) !== canonicalize(deckForHand(seed, n.hand))) {
        problems.push(`seq ${e.seq}: hand ${n.hand}'s deck is not the room seed's shuffle`);
        ok = false;
      }
      if (n.salt !== saltForHand(seed, n.hand)) {
        problems.push(`seq ${e.seq}: hand ${n.hand}'s salt is not the room seed's`);
        ok = false;
      }
    }
    if (ok) verified++;
  }
  if (close) {
    for (const [hand, c] of commitments)
      if (!revealed.has(hand)) problems.push(`hand ${hand} (committed at seq ${c.seq}) was never revealed`);
  }
  return { ok: problems.length === 0, committed: commitments.size, verified, seed, problems };
}

/** The entries of a journal bundle's records (`{type: 'entry', entry}`), for verifyDeckNotes. */
export function entriesOfJournal(records: readonly unknown[]): NotedEntry[] {
  const out: NotedEntry[] = [];
  for (const r of records) {
    const rec = r as { type?: unknown; entry?: NotedEntry };
    if (rec?.type === 'entry' && rec.entry) out.push(rec.entry);
  }
  return out;
}
