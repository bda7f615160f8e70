import { canonicalize, fromHex, hashCanonical, type SeatInfo, sha256Hex } from '@db8/core';
import { deckForHand, saltForHand, verifyDeckCommitment } from '../deck.ts';
import { chipsBought, tableChips } from './hand.ts';
import { poker } from './protocol.ts';
import type { HandSummary, TableState } from './state.ts';

/**
 * Provable fairness and replay, offline. `verifyHandDeal` checks one finished hand: the revealed
 * deck and salt hash to the commitment published at the deal, every card dealt (hole cards in the
 * PHH log, the board, the hands shown) came off that deck in dealing order, and — once the room
 * seed is known (the close entry reveals it) — that the deck is the seed's shuffle for that hand.
 * `replayTable` refolds a table's log through the protocol and checks chips and deals at each step.
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

/** One log entry as replay needs it (a public entry, or a stored one with its payload). */
export interface ReplayEntry {
  seq: number;
  kind: 'genesis' | 'join' | 'action' | 'tick' | 'close';
  actor: string;
  ts: number;
  payload?: unknown;
}

/** Log entries as exported (public payload, or the sealed payload an admin export carries). */
export function replayEntriesOf(
  entries: ReadonlyArray<{
    seq: number;
    kind: string;
    actor: string;
    ts: number;
    payload?: unknown;
    sealed?: { payload: unknown };
  }>,
): ReplayEntry[] {
  return entries.map((e) => {
    const payload = e.payload !== undefined ? e.payload : e.sealed?.payload;
    return {
      seq: e.seq,
      kind: e.kind as ReplayEntry['kind'],
      actor: e.actor,
      ts: e.ts,
      ...(payload !== undefined ? { payload } : {}),
    };
  });
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
 * Refolds a table's log: the genesis entry's config, then every action and tick (joins and the
 * close are the runtime's). Needs the room seed (the close entry's payload, or an admin export).
 * After every step the chips at the table must equal the chips bought; every finished hand's deal
 * must verify. Stops at the first entry the protocol refuses.
 */
export function replayTable(entries: readonly ReplayEntry[], seedIn?: string): TableReplay {
  const problems: string[] = [];
  const hands: HandSummary[] = [];
  const genesis = entries[0];
  const fail = (seq: number, why: string, state: TableState | null, folded: number): TableReplay => {
    problems.push(`seq ${seq}: ${why}`);
    return { ok: false, state, hands, folded, firstDivergence: seq, problems };
  };
  if (genesis?.kind !== 'genesis') return fail(0, 'the log does not start with a genesis entry', null, 0);
  const g = genesis.payload as {
    protocol?: string;
    config?: unknown;
    seats?: SeatInfo[];
    seedCommit?: string;
  };
  if (g?.protocol !== poker.name) return fail(0, `not a poker table (${String(g?.protocol)})`, null, 0);
  const close = entries.find((e) => e.kind === 'close');
  const seed = seedIn ?? (close?.payload as { seed?: string } | undefined)?.seed;
  if (!seed) return fail(0, 'no room seed: the table is open and the export has none', null, 0);
  if (g.seedCommit && sha256Hex(fromHex(seed)) !== g.seedCommit)
    return fail(0, 'the seed does not match the genesis commitment', null, 0);
  const parsed = poker.configSchema.safeParse(g.config);
  if (!parsed.success) return fail(0, 'the genesis config is not a poker table config', null, 0);
  let state = poker.setup(parsed.data, { seats: poker.seats(parsed.data), seed, now: genesis.ts });
  let folded = 1;
  for (const e of entries.slice(1)) {
    if (e.seq !== genesis.seq + folded)
      return fail(e.seq, `expected seq ${genesis.seq + folded}`, state, folded);
    if (e.kind === 'action') {
      const a = poker.actionSchema.safeParse(e.payload);
      if (!a.success)
        return fail(e.seq, 'the action does not parse (sealed, or not a poker action)', state, folded);
      const r = poker.apply(state, { seat: e.actor, action: a.data, now: e.ts, seq: e.seq });
      if (!r.ok)
        return fail(
          e.seq,
          `the protocol refuses ${e.actor}'s ${a.data.kind}: ${r.error.code}`,
          state,
          folded,
        );
      state = r.state;
    } else if (e.kind === 'tick') {
      const t = poker.tick(state, e.ts, e.seq);
      if (!t) return fail(e.seq, 'nothing was due at this tick', state, folded);
      state = t.state;
    }
    folded++;
    if (tableChips(state) !== chipsBought(state))
      return fail(
        e.seq,
        `chips not conserved: ${tableChips(state)} at the table, ${chipsBought(state)} bought`,
        state,
        folded,
      );
    for (const h of state.recent) {
      if (h.number <= (hands.at(-1)?.number ?? 0)) continue;
      hands.push(h);
      for (const p of verifyHandDeal(h, { seed })) problems.push(`seq ${e.seq}: ${p}`);
    }
  }
  return { ok: problems.length === 0, state, hands, folded, problems };
}

/** The state hash a refold ends on (RFC 8785 canonical JSON, SHA-256), as the runtime computes it. */
export const tableStateHash = (state: TableState): string => hashCanonical(state);
