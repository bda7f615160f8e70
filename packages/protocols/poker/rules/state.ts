// Table configuration, actions and state: plain JSON data (no classes, no Maps) so a protocol wrapper can
// store, hash and replay it. Types come from the zod schemas; the engine itself does not re-parse on
// every step (that would dominate the hot path) — parse at the boundary with these schemas.
import { z } from 'zod';
import { isCard, UNKNOWN_CARD } from './cards.ts';

const chips = z.number().int().safe();
const card = z.string().refine((c) => c === UNKNOWN_CARD || isCard(c), 'a card like "As" or "??"');
const knownCard = z.string().refine(isCard, 'a card like "As"');

/**
 * One hand of no-limit hold'em. Seats are 0-based and in PHH order: for 3+ seats seat 0 is the small
 * blind and the last seat is the button; heads-up, seat 1 is the button/small blind and seat 0 the big
 * blind (PHH lists blinds as [small, big] and the engine reverses them for two players, as PokerKit does).
 */
export const PokerConfigSchema = z
  .object({
    startingStacks: z.array(chips.positive()).min(2).max(10),
    /** Per seat, PHH order; a big-blind ante is [0, A, 0, …]. Antes are dead money (see docs/poker.md). */
    antes: z.array(chips.nonnegative()),
    /** Per seat: blinds then straddles. A negative entry -x is a live post of x that does not change
     * who opens the betting (a player posting to come in, as in the HandHQ corpus). */
    blindsOrStraddles: z.array(chips),
    /** The minimum bet, and the minimum raise increment until someone raises more (normally the big blind). */
    minBet: chips.positive(),
    /** The smallest chip for splitting pots: a split pays multiples of this, odd units go one each to
     * the winners nearest the button's left, and any remainder below the unit to the first of them. */
    splitUnit: chips.positive().default(1),
    /** The shuffled deck for engine-dealt hands (hole cards seat by seat in rounds, then the board).
     * Without it every card is dealt by an explicit dealHole/dealBoard action (PHH replay). */
    deck: z.array(knownCard).length(52).nullable().default(null),
    /** Show every live hand at showdown automatically, in showdown order. */
    autoShowdown: z.boolean().default(false),
  })
  .superRefine((c, ctx) => {
    const n = c.startingStacks.length;
    if (c.antes.length !== n) ctx.addIssue({ code: 'custom', message: 'antes must have one entry per seat' });
    if (c.blindsOrStraddles.length !== n)
      ctx.addIssue({ code: 'custom', message: 'blindsOrStraddles must have one entry per seat' });
    if (c.deck && new Set(c.deck).size !== 52)
      ctx.addIssue({ code: 'custom', message: 'deck repeats a card' });
  });
export type PokerConfigInput = z.input<typeof PokerConfigSchema>;
export type PokerConfig = z.output<typeof PokerConfigSchema>;

export const PokerActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('dealHole'), seat: z.number().int(), cards: z.array(card).min(1).max(2) }),
  z.object({ type: z.literal('dealBoard'), cards: z.array(card).min(1).max(3) }),
  z.object({ type: z.literal('fold'), seat: z.number().int() }),
  z.object({ type: z.literal('checkOrCall'), seat: z.number().int() }),
  z.object({ type: z.literal('completeBetOrRaiseTo'), seat: z.number().int(), amount: chips }),
  /** cards omitted or null: show the hand as dealt; muck: true gives the hand up. */
  z.object({
    type: z.literal('showOrMuck'),
    seat: z.number().int(),
    cards: z.array(card).length(2).nullable().optional(),
    muck: z.boolean().optional(),
  }),
  /** Ends the hand now with the cards known so far (for PHH files that stop early). */
  z.object({ type: z.literal('finish') }),
]);
export type PokerAction = z.infer<typeof PokerActionSchema>;

export const PHASES = ['deal', 'betting', 'showdown', 'complete'] as const;
export const SHOW_STATES = ['hidden', 'shown', 'mucked'] as const;

export const PotSchema = z.object({
  amount: chips,
  eligible: z.array(z.number().int()),
  winners: z.array(z.number().int()),
  shares: z.array(chips),
});
export type Pot = z.infer<typeof PotSchema>;

export const PokerStateSchema = z.object({
  config: PokerConfigSchema,
  phase: z.enum(PHASES),
  /** 0 pre-flop, 1 flop, 2 turn, 3 river. */
  street: z.number().int().min(0).max(3),
  stacks: z.array(chips),
  /** This street's bets, not yet collected. */
  bets: z.array(chips),
  /** Live chips collected from earlier streets (uncalled excess already returned). */
  committed: z.array(chips),
  /** Antes posted: dead money in the main pot. */
  antes: z.array(chips),
  folded: z.array(z.boolean()),
  hole: z.array(z.array(card)),
  board: z.array(card),
  /** Seats still to act this street, in order; the head is the actor. */
  queue: z.array(z.number().int()),
  /** The minimum raise increment on this street. */
  minRaise: chips,
  /** The highest bet each seat faced when it last acted this street, -1 if it has not acted. */
  acted: z.array(chips),
  /** The seat that opened or last raised the final betting round: showdown starts there. */
  opener: z.number().int(),
  /** No more betting is possible this hand (at most one live seat has chips): board runs out. */
  bettingClosed: z.boolean(),
  shows: z.array(z.enum(SHOW_STATES)),
  deckPos: z.number().int(),
  /** Set when the hand is complete. */
  pots: z.array(PotSchema).nullable(),
  /** Chips each seat received from the pots (excluding returned uncalled bets). */
  winnings: z.array(chips).nullable(),
  /** Every step in PHH notation ('d dh p1 AsKd', 'p2 cbr 300', …): the replay and export record. */
  log: z.array(z.string()),
});
export type PokerState = z.infer<typeof PokerStateSchema>;
export type Phase = PokerState['phase'];

export const ERROR_CODES = [
  'INVALID_CONFIG',
  'INVALID_ACTION',
  'HAND_COMPLETE',
  'WRONG_PHASE',
  'NOT_YOUR_TURN',
  'NO_SUCH_SEAT',
  'CANNOT_RAISE',
  'RAISE_TOO_SMALL',
  'RAISE_TOO_LARGE',
  'BAD_AMOUNT',
  'BAD_CARDS',
  'DUPLICATE_CARD',
  'WRONG_CARD_COUNT',
  'CARDS_MISMATCH',
  'NOT_IN_HAND',
  'AUTO_DEAL',
] as const;
export type PokerErrorCode = (typeof ERROR_CODES)[number];

/** Why an operation is not allowed: a stable code to switch on and a sentence for people. */
export type PokerError = { code: PokerErrorCode; reason: string };

export class PokerRuleError extends Error {
  readonly code: PokerErrorCode;
  constructor(error: PokerError) {
    super(`${error.code}: ${error.reason}`);
    this.name = 'PokerRuleError';
    this.code = error.code;
  }
}

export function err(code: PokerErrorCode, reason: string): PokerError {
  return { code, reason };
}
