import { canonicalize, hashCanonical, refoldLog, type StoredEntry } from '@db8/core';
import { deckForHand, saltForHand, verifyDeckCommitment } from '../deck.ts';
import { chipsBought, tableChips } from './hand.ts';
import { poker } from './protocol.ts';
import type { HandSummary, TableState } from './state.ts';

/**
 * Provable fairness and replay, offline. `verifyHandDeal` checks one finished hand: the revealed
 * deck and salt hash to the commitment published at the deal, every card dealt (hole cards in the
 * PHH log, the board, the hands shown) came off that deck in dealing order, and — once the room
 * seed is known (the close entry reveals it) — that the deck is the seed's shuffle for that hand.
 * `replayTable` refolds a table's log (core's refoldLog) and checks chips and deals at each step.
 */

export function verifyHandDeal(
  hand: HandSummary,
  opts: { seed?: string; commitmentAtDeal?: string } = {},
): string[] {
  const problems: string[] = [];
  const n = hand.seats.length;
  const { deck } = hand;
  if (hand.cancelled && deck.length === 0) return problems;
  if (!verifyDeckCommitment(hand.commitment, deck, hand.salt)) {
    problems.push(`hand ${hand.number}: deck and salt do not hash to the commitment`);
  }
  if (opts.commitmentAtDeal !== undefined && opts.commitmentAtDeal !== hand.commitment) {
    problems.push(`hand ${hand.number}: the commitment changed after the deal`);
  }
  if (opts.seed !== undefined) {
    if (canonicalize(deck) !== canonicalize(deckForHand(opts.seed, hand.number)))
      problems.push(`hand ${hand.number}: the deck is not the room seed's shuffle`);
    if (hand.salt !== saltForHand(opts.seed, hand.number))
      problems.push(`hand ${hand.number}: the salt is not the room seed's`);
  }
  for (const line of hand.log) {
    const m = /^d dh p(\d+) (\S+)$/.exec(line);
    if (!m) continue;
    const k = Number(m[1]) - 1;
    if (m[2] !== `${deck[k]}${deck[n + k]}`)
      problems.push(`hand ${hand.number}: p${k + 1} was not dealt ${m[2]} by the deck`);
  }
  const board = deck.slice(2 * n, 2 * n + hand.board.length);
  if (canonicalize(board) !== canonicalize(hand.board))
    problems.push(`hand ${hand.number}: the board is not the deck's`);
  for (const s of hand.shown) {
    const k = hand.seats.indexOf(s.seat);
    if (k < 0 || s.cards[0] !== deck[k] || s.cards[1] !== deck[n + k])
      problems.push(`hand ${hand.number}: seat ${s.seat} showed cards it was not dealt`);
  }
  return problems;
}

export interface TableReplay {
  ok: boolean;
  /** The state after the last entry folded. */
  state: TableState | null;
  /** Every finished hand, in order. */
  hands: HandSummary[];
  /** Entries folded. */
  folded: number;
  /** The first seq where the log and the protocol disagree. */
  firstDivergence?: number;
  problems: string[];
}

/**
 * Refolds a table's log with core's refoldLog (the fold every room uses: genesis config and seats,
 * every action and tick, notes recomputed, the close and its result checked), given its stored
 * entries (an admin export, or a public one whose close revealed what was sealed). Needs the room
 * seed: the close entry's, or `seedIn`. After every entry the chips at the table must equal the
 * chips bought, and every finished hand's deal must verify against the seed.
 */
export function replayTable(entries: readonly StoredEntry[], seedIn?: string): TableReplay {
  const hands: HandSummary[] = [];
  let seed = seedIn;
  const check = (_e: StoredEntry, s: unknown): string[] => {
    const state = s as TableState;
    const out: string[] = [];
    if (tableChips(state) !== chipsBought(state))
      out.push(`chips not conserved: ${tableChips(state)} at the table, ${chipsBought(state)} bought`);
    for (const h of state.recent) {
      if (h.number <= (hands.at(-1)?.number ?? 0)) continue;
      hands.push(h);
      out.push(...verifyHandDeal(h, seed !== undefined ? { seed } : {}));
    }
    return out;
  };
  const close = entries.find((e) => e.kind === 'close');
  seed ??= (close?.payload as { seed?: string } | undefined)?.seed;
  const r = refoldLog(entries, new Map([[poker.name, poker]]), {
    ...(seed !== undefined ? { seed } : {}),
    check,
  });
  const problems = [...r.problems];
  if (r.skipped !== undefined) problems.push(`seq ${r.seq + 1}: ${r.skipped}`);
  if (r.protocol !== null && r.protocol !== poker.name)
    problems.push(`seq 0: not a poker table (${r.protocol})`);
  const folded = r.seq + 1;
  const firstDivergence = r.firstDivergence ?? (r.skipped !== undefined ? r.seq + 1 : undefined);
  return {
    ok: problems.length === 0,
    state: folded > 0 ? (r.state as TableState) : null,
    hands,
    folded,
    ...(firstDivergence !== undefined ? { firstDivergence } : {}),
    problems,
  };
}

/** The state hash a refold ends on (RFC 8785 canonical JSON, SHA-256), as the runtime computes it. */
export const tableStateHash = (state: TableState): string => hashCanonical(state);
