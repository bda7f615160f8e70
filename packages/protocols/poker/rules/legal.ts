// What may happen next, for agents and for a protocol wrapper; and what one seat may see.
import { UNKNOWN_CARD } from './cards.ts';
import {
  callAmount,
  canCompleteBetOrRaiseTo,
  canFold,
  canShowOrMuck,
  holeDealee,
  maxRaiseTo,
  minRaiseTo,
  showdownActor,
} from './engine.ts';
import { BOARD_AT, maxOf, seatName, showdownOrder, sumOf } from './flow.ts';
import type { PokerState } from './state.ts';

export type LegalActions = {
  phase: PokerState['phase'];
  street: number;
  /** The seat whose decision it is (betting, or the next hand to show), or null. */
  actor: number | null;
  /** A deal the dealer owes now (only without a committed deck). */
  deal: { kind: 'hole'; seat: number; count: number } | { kind: 'board'; count: number } | null;
  fold: boolean;
  /** True when checking is free; otherwise `call` chips are needed (capped at the stack). */
  check: boolean;
  call: number;
  /** Raise-to bounds for this street, or null when the actor may not bet or raise. */
  raise: { min: number; max: number } | null;
  /** Seats that may show or muck now. */
  show: number[];
  /** Chips in the middle (collected pots plus this street's bets). */
  pot: number;
};

export function legalActions(s: PokerState): LegalActions {
  const base: LegalActions = {
    phase: s.phase,
    street: s.street,
    actor: null,
    deal: null,
    fold: false,
    check: false,
    call: 0,
    raise: null,
    show: [],
    pot: sumOf(s.committed) + sumOf(s.antes) + sumOf(s.bets),
  };
  if (s.phase === 'complete') {
    // the winner of an uncontested pot may still show
    return { ...base, pot: 0, show: s.folded.flatMap((f, i) => (f || s.shows[i] !== 'hidden' ? [] : [i])) };
  }
  if (s.phase === 'betting') {
    const seat = s.queue[0]!;
    const call = callAmount(s, seat);
    const min = minRaiseTo(s, seat);
    return {
      ...base,
      actor: seat,
      fold: canFold(s, seat),
      check: maxOf(s.bets) <= s.bets[seat]!,
      call,
      raise: canCompleteBetOrRaiseTo(s, seat, min) ? { min, max: maxRaiseTo(s, seat) } : null,
    };
  }
  const show = showdownOrder(s).filter((i) => canShowOrMuck(s, i));
  if (s.phase === 'showdown') return { ...base, actor: showdownActor(s), show };
  if (s.config.deck) return { ...base, show };
  if (s.street === 0) {
    const seat = holeDealee(s)!;
    return { ...base, deal: { kind: 'hole', seat, count: 2 - s.hole[seat]!.length }, show };
  }
  return { ...base, deal: { kind: 'board', count: BOARD_AT[s.street as 1 | 2 | 3] - s.board.length }, show };
}

/**
 * The state as one seat (or an observer, seat null) may see it: other seats' hole cards are '??' until
 * shown, the deck is withheld, and the log hides the same cards. Everything is visible once the hand is
 * complete only for hands that were shown; mucked and folded hands stay hidden.
 */
export function viewFor(s: PokerState, seat: number | null): PokerState {
  const visible = (i: number) => i === seat || s.shows[i] === 'shown';
  return {
    ...s,
    config: { ...s.config, deck: null },
    hole: s.hole.map((h, i) => (visible(i) ? h.slice() : h.map(() => UNKNOWN_CARD))),
    log: s.log.map((line) => {
      const m = /^d dh (p\d+) (.+)$/.exec(line);
      if (!m) return line;
      const i = Number(m[1]!.slice(1)) - 1;
      return visible(i) ? line : `d dh ${seatName(i)} ${UNKNOWN_CARD.repeat(m[2]!.length / 2)}`;
    }),
  };
}
