import type {
  DebateAction,
  DebateView,
  LegalAction,
  RubricCard,
  SubmissionRow,
  SubmitAction,
  VerdictValue,
} from '../rules/index.ts';
import { weightedRubric } from '../rules/index.ts';
import type { ScriptedDecision } from './scripted.ts';

/**
 * Scripted debaters of different strength, and the house seats that judge them by fixed rules (an
 * arena match: `db8 arena run`, docs/arena.md). Nothing here reads an argument: the house
 * fact-checker checks a claim's *form* (does its citation name a source the submission lists?) and
 * the house judge scores what the fact-check recorded. The protocol's own scoring does the rest —
 * the rubric's weighted mean, and the calibration bonus, which rewards confidences that match the
 * verdicts (Brier score). So a strategy's strength is how its claims fare under those rules:
 *
 *   evidence  every claim cites a listed source, 90 % confident   (verified, and calibrated)
 *   hedge     every claim cites a listed source, 50 % confident   (verified, no calibration bonus)
 *   sloppy    one claim cites a listed source, one does not, 70 % (half refuted)
 *   bluff     every claim cites a source it does not list, 95 %   (refuted, and overconfident)
 *   silent    submits nothing                                     (forfeits every round)
 *
 * Pure: the same view gives the same decisions. Every text says `[scripted]`.
 */

export const DEBATE_STRATEGIES = ['evidence', 'hedge', 'sloppy', 'bluff', 'silent'] as const;
export type DebateStrategy = (typeof DEBATE_STRATEGIES)[number];

const S = '[scripted]';
const listed = (seat: string, round: number, i: number) =>
  `https://example.org/db8/arena/${seat}/${round}/source-${i}`;
const unlisted = (seat: string, round: number, i: number) =>
  `https://example.org/db8/arena/${seat}/${round}/unlisted-${i}`;

/** How a strategy cites each of its claims (true: a listed source) and how sure it says it is. */
const STYLE: Record<Exclude<DebateStrategy, 'silent'>, { cites: [boolean, boolean]; confidence: number }> = {
  evidence: { cites: [true, true], confidence: 90 },
  hedge: { cites: [true, true], confidence: 50 },
  sloppy: { cites: [true, false], confidence: 70 },
  bluff: { cites: [false, false], confidence: 95 },
};

/** A strategy's submission for the open round, or null (silent). */
export function strategySubmission(
  strategy: DebateStrategy,
  view: DebateView,
  legal: Extract<LegalAction, { type: 'submit' }>,
  roomId: string,
): SubmitAction | null {
  if (strategy === 'silent') return null;
  const seat = legal.author_id;
  const round = view.round;
  const style = STYLE[strategy];
  const claims = style.cites.slice(0, Math.max(1, legal.claims_max)).map((ok, k) => ({
    id: `c${k + 1}`,
    text: `${S} claim ${k + 1} of ${seat} in round ${round} (${strategy})`,
    support: [{ kind: 'citation' as const, ref: (ok ? listed : unlisted)(seat, round, k + 1) }],
    confidence: style.confidence,
  }));
  const content = `${S} ${seat}, ${legal.phase.toLowerCase()} (round ${round}), strategy ${strategy}, on "${view.config.topic}". A fixed script, not an argument.`;
  return {
    type: 'submit',
    room_id: legal.room_id ?? roomId,
    round_id: legal.round_id,
    author_id: seat,
    phase: legal.phase,
    deadline_unix: legal.deadline_unix,
    content: content.slice(0, legal.content_max),
    claims,
    citations: [1, 2].map((i) => ({ url: listed(seat, round, i), title: `${S} source ${i}` })),
    client_nonce: `arena:${legal.round_id}:${seat}:v${legal.version + 1}`,
  };
}

/** A debater seat's decisions: its strategy's submission, once per round. */
export function strategyDecisions(
  strategy: DebateStrategy,
  seat: string,
  view: DebateView,
  legal: readonly LegalAction[],
  roomId: string,
): ScriptedDecision[] {
  const out: ScriptedDecision[] = [];
  const round = view.rounds[view.round - 1];
  for (const l of legal) {
    if (
      l.type === 'submit' &&
      l.version === 0 &&
      !round?.submissions.some((s) => s.author === seat && s.version > 0)
    ) {
      const action = strategySubmission(strategy, view, l, roomId);
      if (action) out.push({ key: `submit:${l.round_id}`, action });
    }
    // A continue vote (matches of more than one argument round): always go on to the next round.
    if (l.type === 'vote_continue' && round?.continue_vote && !round.continue_vote.voted.includes(seat))
      out.push({ key: `vote:${view.round}`, action: { type: 'vote_continue', choice: 'continue' } });
  }
  return out;
}

/**
 * The house fact-checker's rule, on form alone: a claim is `true` when it cites at least one
 * source and every source it cites is among the submission's citations; `false` when it cites a
 * source the submission does not list; `unclear` when it cites none (logic or data only).
 */
export function houseVerdict(
  claim: { support: readonly { kind: string; ref: string }[] },
  citations: readonly { url: string }[],
): VerdictValue {
  const cited = claim.support.filter((s) => s.kind === 'citation').map((s) => s.ref);
  if (cited.length === 0) return 'unclear';
  const urls = new Set(citations.map((c) => c.url));
  return cited.every((ref) => urls.has(ref)) ? 'true' : 'false';
}

/** The house judge's card for one debater, from the published rounds and their fact-checks. */
export function houseCard(view: DebateView, debater: string): RubricCard {
  const rounds = view.rounds.filter((r) => r.published_at !== null);
  const rows = rounds
    .map((r) => r.submissions.find((s) => s.author === debater))
    .filter((s): s is SubmissionRow & { payload: NonNullable<SubmissionRow['payload']> } => !!s?.payload);
  const verdicts = rows.flatMap((s) => s.verdict?.claims.map((c) => c.verdict) ?? []);
  const claims = rows.reduce((n, s) => n + s.payload.claims.length, 0);
  const pct = (k: number, n: number) => (n === 0 ? 0 : Math.round((100 * k) / n));
  return {
    // evidence: claims the fact-check found supported; reasoning: rounds argued at all;
    // clarity: claims not refuted; civility and yielding: nothing to measure, the same for all.
    e: pct(verdicts.filter((v) => v === 'true').length, claims),
    r: pct(rows.length, rounds.length),
    c: pct(claims - verdicts.filter((v) => v === 'false').length, claims),
    v: 100,
    y: 50,
  };
}

/** What a house seat (the fact-checker or a judge) does now: the same rules in every match. */
export function houseDecisions(
  seat: string,
  view: DebateView,
  legal: readonly LegalAction[],
): ScriptedDecision[] {
  const out: ScriptedDecision[] = [];
  const round = view.rounds[view.round - 1];
  for (const l of legal) {
    if (l.type === 'verdict') {
      const sub = round?.submissions.find((s) => s.author === l.author)?.payload;
      if (!sub) continue;
      out.push({
        key: `verdict:${l.author}:${l.canonical_sha256}`,
        action: {
          type: 'verdict',
          author: l.author,
          canonical_sha256: l.canonical_sha256,
          claims: sub.claims.map((c) => {
            const verdict = houseVerdict(c, sub.citations);
            return {
              claim_id: c.id,
              verdict,
              reason: `${S} house rule: cited sources ${verdict === 'true' ? 'all listed' : verdict === 'false' ? 'not listed' : 'none'}`,
            };
          }),
        },
      });
    }
    if (l.type === 'score' && view.phase === 'final_vote' && !view.judging.scored.includes(seat))
      out.push({
        key: 'score',
        action: { type: 'score', cards: l.debaters.map((d) => ({ debater: d, ...houseCard(view, d) })) },
      });
    if (l.type === 'final_vote' && !view.final_vote.voted.includes(seat)) {
      // Approve the best card(s). No ranking: it would order equal cards somehow (seat order), and
      // its Borda points would then break a tie the rules should leave shared.
      const w = view.config.scoring.weights;
      const marks = l.candidates.map((d) => ({ d, m: weightedRubric(houseCard(view, d), w) }));
      const best = Math.max(...marks.map((x) => x.m));
      const action: DebateAction = {
        type: 'final_vote',
        approval: marks.filter((x) => x.m === best).map((x) => x.d),
      };
      out.push({ key: 'final_vote', action });
    }
  }
  return out;
}
