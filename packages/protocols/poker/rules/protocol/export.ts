import { canonicalize } from '@db8/core';
import { checkOrCall, completeBetOrRaiseTo, fold, setup } from '../engine.ts';
import { toPhh } from '../phh.ts';
import type { PokerConfigInput, PokerState } from '../state.ts';
import type { TableConfig } from './config.ts';
import type { HandSummary } from './state.ts';

/**
 * One hand as the engine sees it: `k` seats in engine order (engine seat 0 left of the button, the
 * button last), the table's antes and blinds, the committed deck, automatic showdown.
 */
export function engineConfigFor(
  config: TableConfig,
  stacks: readonly number[],
  deck: string[] | null,
): PokerConfigInput {
  const k = stacks.length;
  const blinds = new Array<number>(k).fill(0);
  blinds[0] = config.smallBlind;
  blinds[1] = config.bigBlind;
  return {
    startingStacks: stacks.slice(),
    antes: new Array<number>(k).fill(config.ante),
    blindsOrStraddles: blinds,
    minBet: config.bigBlind,
    deck,
    autoShowdown: true,
  };
}

/**
 * Re-runs a finished hand through the engine from its start stacks, revealed deck and recorded
 * actions. Throws (PokerRuleError, or Error naming the step) when an action is illegal or the
 * result differs from the summary's end stacks.
 */
export function rebuildHand(config: TableConfig, hand: HandSummary): PokerState {
  let s = setup(engineConfigFor(config, hand.startStacks, hand.deck.length === 52 ? hand.deck : null));
  hand.actions.forEach((a, step) => {
    if (a.kind === 'ante' || a.kind === 'smallBlind' || a.kind === 'bigBlind') return;
    const seat = hand.seats.indexOf(a.seat);
    try {
      if (a.kind === 'fold') s = fold(s, seat);
      else if (a.kind === 'raiseTo') s = completeBetOrRaiseTo(s, seat, a.amount ?? 0);
      else s = checkOrCall(s, seat);
    } catch (e) {
      (e as Error).message =
        `hand ${hand.number} action ${step} (seat ${a.seat} ${a.kind}): ${(e as Error).message}`;
      throw e;
    }
  });
  if (!hand.cancelled) {
    if (s.phase !== 'complete') throw new Error(`hand ${hand.number}: the actions do not finish the hand`);
    if (canonicalize(s.stacks) !== canonicalize(hand.endStacks))
      throw new Error(
        `hand ${hand.number}: the engine ends on stacks ${s.stacks.join(',')}, the record says ${hand.endStacks.join(',')}`,
      );
  }
  return s;
}

/** A finished hand as PHH text (players named `seat_N`). */
export function handToPhh(config: TableConfig, hand: HandSummary): string {
  const state = rebuildHand(config, hand);
  return toPhh(state, { players: hand.seats.map((t) => `seat_${t}`) });
}
