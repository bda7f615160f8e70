import type { Legal } from '@db8/core';
import type { DeliberationAction, TurnAction } from '../rules/actions.ts';
import type { DeliberationConfig } from '../rules/config.ts';
import { tokenSet } from '../rules/consensus.ts';
import { scriptedAction } from '../rules/scripted.ts';
import type { DeliberationView, LegalAction } from '../rules/view.ts';

/**
 * Scripted proposers of different strength, and the house judge that places them by a fixed rule
 * (an arena match: `db8 arena run`, docs/arena.md "Deliberation matches"). The match room's
 * proposal phase carries a checklist of points in its prompt; the house judge reads only the
 * proposals of the round (never who wrote them) and scores each one
 *
 *   coverage − |confidence − coverage| / 2
 *
 * where coverage is the share of the checklist's points the proposal's text covers (a point is
 * covered when every word of it is among the proposal's words, tokenised as consensus does) and
 * confidence is what the proposal says of itself. So a strategy's strength is how its proposal
 * fares under that rule (four points):
 *
 *   thorough  covers every point, 90 % confident   1 − 0.05  = 0.95
 *   hedge     covers every point, 50 % confident   1 − 0.25  = 0.75
 *   partial   covers half the points, 70 %         0.5 − 0.1 = 0.40
 *   bluff     covers none, 95 % confident          0 − 0.475 = −0.475
 *   silent    proposes nothing                     (not a candidate)
 *
 * The judge votes for the one best proposal (confidence 0.5) and abstains when the best are
 * level, so equal play shares a place. Pure: the same view gives the same decisions. Every text says `[scripted]`.
 */

export const DELIBERATION_STRATEGIES = ['thorough', 'hedge', 'partial', 'bluff', 'silent'] as const;
export type DeliberationStrategy = (typeof DELIBERATION_STRATEGIES)[number];

/** The checklist's first line in the proposal phase's prompt; each point follows as `- <point>`. */
export const POINTS_HEADER = 'Cover each of these points:';

/** The proposal phase's prompt for a checklist. */
export const pointsPrompt = (points: readonly string[]) =>
  [POINTS_HEADER, ...points.map((p) => `- ${p}`)].join('\n');

/** The checklist a room's proposal prompt carries (none when it carries none). */
export function pointsOf(config: DeliberationConfig): string[] {
  const lines = (config.phases.proposal?.prompt ?? '').split('\n');
  const at = lines.indexOf(POINTS_HEADER);
  if (at < 0) return [];
  return lines
    .slice(at + 1)
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2).trim())
    .filter((l) => l.length > 0);
}

/** How many of a strategy's four-point share it covers, and how sure it says it is. */
const STYLE: Record<Exclude<DeliberationStrategy, 'silent'>, { share: number; confidence: number }> = {
  thorough: { share: 1, confidence: 0.9 },
  hedge: { share: 1, confidence: 0.5 },
  partial: { share: 0.5, confidence: 0.7 },
  bluff: { share: 0, confidence: 0.95 },
};

/** The house judge's score of one proposal (see the header). */
export function judgeScore(points: readonly string[], content: string, confidence: number): number {
  const words = tokenSet(content);
  const covered = points.filter((p) => [...tokenSet(p)].every((w) => words.has(w))).length;
  const coverage = points.length === 0 ? 0 : covered / points.length;
  return coverage - Math.abs(confidence - coverage) / 2;
}

type Propose = Extract<TurnAction, { type: 'propose' }>;

/** The house judge's ballot: the one best proposal it can read, or none when the best are level. */
export function houseBallot(view: DeliberationView, candidates: readonly string[]): string[] {
  const points = pointsOf(view.config);
  const scored = view.turns
    .filter((t) => t.round === view.round && t.action.type === 'propose' && candidates.includes(t.seat))
    .map((t) => {
      const a = t.action as Propose;
      return { seat: t.seat, score: judgeScore(points, a.content, a.confidence) };
    });
  const top = Math.max(...scored.map((s) => s.score));
  const best = scored.filter((s) => s.score === top);
  return best.length === 1 ? [best[0]!.seat] : [];
}

/** The house judge's confidence in its ballot: its vote weighs seat score × this. */
export const HOUSE_CONFIDENCE = 0.5;

/** The house judge's turn (convergence), or null when it holds none. */
export function houseAction(view: DeliberationView, legal: Legal): DeliberationAction | null {
  const turn = (legal.actions as readonly LegalAction[]).find((a) => a.type === 'converge');
  if (turn?.type !== 'converge' || !legal.turnToken) return null;
  const ranking = houseBallot(view, turn.candidates);
  return {
    type: 'converge',
    ranking,
    content: `[scripted] house judge: ${ranking.length ? `best proposal ${ranking[0]}` : 'the best proposals are level'} by checklist coverage and calibration`,
    // Below 1, so the round's consensus (0.4 · 0.5 + 0.4 + 0.2 = 0.8) stays under an arena room's
    // minConsensus of 1: one house ballot is no consensus of the seats, and the deliberation
    // module keeps no lesson from it.
    confidence: HOUSE_CONFIDENCE,
    dissent: null,
    call: null,
  };
}

/** A strategy's proposal text: it names the first `share` of the checklist's points. */
function proposalText(strategy: DeliberationStrategy, seat: string, points: readonly string[]): string {
  const share = strategy === 'silent' ? 0 : STYLE[strategy].share;
  const named = points.slice(0, Math.round(points.length * share));
  const body = named.length ? `It covers: ${named.join('; ')}.` : 'It stays general.';
  return `[scripted] ${seat}, strategy ${strategy}: a fixed script, not a proposal. ${body}`;
}

/**
 * A proposer seat's action under its strategy, or null (silent, or nothing to do). It plans its own
 * part (dpde), proposes, and — only if a room ever asked it to vote, which an arena match does not —
 * ranks itself first.
 */
export function strategyAction(
  strategy: DeliberationStrategy,
  view: DeliberationView,
  legal: Legal,
): DeliberationAction | null {
  if (strategy === 'silent') return null;
  const seat = view.you.seat ?? '';
  const style = STYLE[strategy];
  const turn = (legal.actions as readonly LegalAction[]).find((a) => a.type === 'converge');
  if (turn?.type === 'converge' && legal.turnToken) {
    const self = turn.candidates.includes(seat) ? [seat] : [];
    return {
      type: 'converge',
      ranking: [...self, ...turn.candidates.filter((c) => c !== seat)],
      content: `[scripted] ${seat} votes for itself`,
      confidence: style.confidence,
      dissent: null,
      call: null,
    };
  }
  return scriptedAction(view, legal, {
    text: () => proposalText(strategy, seat, pointsOf(view.config)),
    confidence: () => style.confidence,
  });
}
