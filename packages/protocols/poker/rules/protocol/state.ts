import { z } from 'zod';
import { PokerStateSchema } from '../state.ts';
import { TableConfigSchema } from './config.ts';

/** The table's state: plain JSON (canonicalizable), never mutated, everything view/legal need. */

const int = z.number().int();
const chips = int.min(0);

export const SeatStatusSchema = z.enum(['empty', 'active', 'sittingOut']);
export const SitOutReasonSchema = z.enum(['self', 'busted', 'timeouts', 'left', 'kicked']);

export const SeatStateSchema = z.object({
  status: SeatStatusSchema,
  sitOutReason: SitOutReasonSchema.nullable(),
  /** Chips behind outside the hand; for a seat in the hand, its stack when the hand began. */
  stack: chips,
  /** Every chip this seat was given (buy-in and top-ups): net = stack − bought. */
  bought: chips,
  /** Top-ups that arrived while the seat was in a hand, added when the hand ends. */
  pending: chips,
  /** Timeouts in a row (reset by any action of the seat's own). */
  timeouts: chips,
  handsPlayed: chips,
});
export type SeatState = z.infer<typeof SeatStateSchema>;

/** One public step of a hand, in table seats (posts, bets, timeouts). */
export const HandActionSchema = z.object({
  seat: int,
  kind: z.enum(['ante', 'smallBlind', 'bigBlind', 'fold', 'check', 'call', 'raiseTo']),
  /** Chips put in (posts, calls) or the raise-to total. */
  amount: chips.optional(),
  street: z.enum(['preflop', 'flop', 'turn', 'river']),
  /** The table acted for the seat (timeout). */
  auto: z.boolean().optional(),
});
export type HandAction = z.infer<typeof HandActionSchema>;

export const LiveHandSchema = z.object({
  number: int.min(1),
  /** sha256 of canonical {deck, salt}: published when the hand starts. */
  commitment: z.string(),
  /** Server-only until the hand ends (the view never shows it while the hand runs). */
  salt: z.string(),
  button: int,
  /** Table seat of each engine seat (engine seat 0 is left of the button; the button is last). */
  seats: z.array(int),
  engine: PokerStateSchema,
  /** When the current decision began (its deadline is this + actionTimeoutMs), or null. */
  turnStartedAt: int.nullable(),
  startedAt: int,
  actions: z.array(HandActionSchema),
});
export type LiveHand = z.infer<typeof LiveHandSchema>;

export const HandSummarySchema = z.object({
  number: int.min(1),
  button: int,
  /** Table seats dealt in, in engine order (PHH p1 … pN). */
  seats: z.array(int),
  startStacks: z.array(chips),
  endStacks: z.array(chips),
  board: z.array(z.string()),
  /** Hands shown at showdown (table seat, cards). */
  shown: z.array(z.object({ seat: int, cards: z.array(z.string()) })),
  pots: z.array(z.object({ amount: chips, winners: z.array(int), shares: z.array(chips) })),
  /** Net chips won or lost in this hand, per dealt-in seat (same order as `seats`). */
  net: z.array(int),
  actions: z.array(HandActionSchema),
  /** The engine's PHH action log (every card, now that the deck is public). */
  log: z.array(z.string()),
  commitment: z.string(),
  /** Revealed at hand end: anyone can check sha256(canonical {deck, salt}) == commitment. */
  deck: z.array(z.string()),
  salt: z.string(),
  /** The hand was called off (table stopped mid-hand): every chip went back. */
  cancelled: z.boolean(),
  startedAt: int,
  endedAt: int,
});
export type HandSummary = z.infer<typeof HandSummarySchema>;

export const LastActionSchema = z.object({
  seat: int,
  kind: z.string(),
  amount: chips.optional(),
  auto: z.boolean().optional(),
  at: int,
});

export const TableStateSchema = z.object({
  config: TableConfigSchema,
  /** The room seed: the source of every deck. Never in a view. */
  seed: z.string(),
  /** Bumped by every transition: turn tokens derive from it. */
  counter: chips,
  seats: z.array(SeatStateSchema),
  /** Table seat of the last hand's button, -1 before the first hand. */
  button: int,
  handsStarted: chips,
  hand: LiveHandSchema.nullable(),
  /** When the next hand is dealt (a tick), or null while fewer than two seats can play. */
  nextHandAt: int.nullable(),
  /** The last few hands (newest last). */
  recent: z.array(HandSummarySchema),
  lastAction: LastActionSchema.nullable(),
  stopped: z.boolean(),
  stopReason: z.enum(['house', 'maxHands', 'idle']).nullable(),
  /** Since when every seat that ever sat in is out and no hand runs (null otherwise). */
  idleSince: int.nullable(),
});
export type TableState = z.infer<typeof TableStateSchema>;

/** How many finished hands the state (and so the view) keeps. */
export const RECENT_HANDS = 5;
