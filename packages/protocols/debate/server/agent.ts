import { clip, type Decision, modelDecision, type SeatAgent, withPersona } from '@db8/server/kit';
import { z } from 'zod';
import {
  CanonicalPayloadSchema,
  ClaimVerdictSchema,
  type DebateView,
  type LegalAction,
  RubricCardSchema,
} from '../rules/index.ts';
import { citationChecksBrief, researchBrief, researchDecision } from './research/agent-decisions.ts';

/**
 * Debate seats played by a model: debaters write submissions (and vote), the fact-checker gives
 * per-claim verdicts, judges score rubric cards. The model writes only the content; the envelope
 * (round, author, deadline, nonce) comes from the legal action, so a model cannot address another
 * round or seat. A failed call submits nothing: the round's deadline then forfeits the slot.
 */

const BodySchema = CanonicalPayloadSchema.pick({ content: true, claims: true, citations: true }).strict();
const VerdictsSchema = z.object({ claims: z.array(ClaimVerdictSchema).min(1).max(5) }).strict();
const ContinueSchema = z.object({ choice: z.enum(['continue', 'end']) }).strict();

const SYSTEM = {
  debater:
    'You are an anonymous debater in a structured debate. Argue your position honestly, make checkable claims, and cite real sources. Reply only with the requested JSON.',
  fact_checker:
    'You are the fact-checker of a structured debate. Judge each claim of one submission: true, false, unclear or needs_work, with a short reason. Reply only with the requested JSON.',
  judge:
    'You are a judge of a structured debate. Score each debater 0-100 on evidence (e), reasoning (r), clarity (c), civility (v) and yielding (y: engaging with and giving ground to others). Reply only with the requested JSON.',
} as const;

/** The final ballot's system prompt: judges and viewers vote too (config.final_voters). */
function voterSystem(view: DebateView): string {
  if (view.you.role === 'debater') return SYSTEM.debater;
  const who = view.you.role === 'judge' ? 'a judge' : 'a voter';
  return `You are ${who} of a structured debate: approve the debaters who argued best. Reply only with the requested JSON.`;
}

function transcript(view: DebateView): unknown {
  return view.rounds.map((r) => ({ round: r.index, label: r.label, submissions: r.submissions }));
}

export const debateAgent: SeatAgent = (ctx) => {
  const view = ctx.view as DebateView;
  const legal = ctx.legal as LegalAction[];
  const out: Decision[] = [];
  const round = view.rounds[view.round - 1];
  const topic = `Motion: "${view.config.topic}"`;
  if (view.phase === 'research' && view.you.role === 'debater')
    out.push(
      researchDecision(`research:${view.round}`, ctx, {
        system: withPersona(SYSTEM.debater, ctx.persona),
        prompt: `${topic}\nYou are ${ctx.seat}; round ${view.round} opens for submissions after this phase.\nEarlier rounds:\n${clip(transcript(view), 6000)}`,
      }),
    );
  for (const l of legal) {
    if (l.type === 'submit') {
      const mine = round?.submissions.find((s) => s.author === ctx.seat);
      if (l.version !== 0 || (mine?.version ?? 0) !== 0) continue;
      const schema = BodySchema.extend({
        claims: BodySchema.shape.claims.max(Math.max(1, l.claims_max)),
        content: BodySchema.shape.content.max(l.content_max),
      });
      const submit = (brief: string) =>
        modelDecision(
          `submit:${l.round_id}`,
          ctx.seat,
          {
            schemaName: 'debate_submission',
            schema,
            description: 'Your submission for this round of the debate.',
            system: withPersona(SYSTEM.debater, ctx.persona),
            prompt: `${topic}\nYou are ${ctx.seat}; this is the ${l.phase} (round ${view.round}). At most ${l.content_max} characters of content, ${l.claims_max} claims, at least ${Math.max(2, l.citations_min)} citations (http/https URLs).\nEarlier rounds:\n${clip(transcript(view))}${brief}`,
          },
          (v) => ({
            type: 'submit',
            room_id: l.room_id ?? ctx.roomId,
            round_id: l.round_id,
            author_id: ctx.seat,
            phase: l.phase,
            deadline_unix: l.deadline_unix,
            ...v,
            client_nonce: `drv:${l.round_id}:${ctx.seat}:v1`,
          }),
        );
      // The room's research cache is read when the decision runs (it is not part of the view).
      const key = `submit:${l.round_id}`;
      out.push({
        key,
        run: async (provider, signal) => submit(await researchBrief(ctx.roomId)).run(provider, signal),
      });
    } else if (l.type === 'verdict') {
      const sub = round?.submissions.find((s) => s.author === l.author);
      const schema = VerdictsSchema.extend({
        claims: z
          .array(ClaimVerdictSchema.extend({ claim_id: z.enum(l.claim_ids as [string, ...string[]]) }))
          .min(1)
          .max(5),
      });
      const verdict = (brief: string) =>
        modelDecision(
          `verdict:${l.author}:${l.canonical_sha256}`,
          ctx.seat,
          {
            schemaName: 'debate_verdicts',
            schema,
            description: 'One verdict per claim of this submission.',
            system: withPersona(SYSTEM.fact_checker, ctx.persona),
            prompt: `${topic}\nSubmission of ${l.author} (claims ${l.claim_ids.join(', ')}):\n${clip(sub ?? {})}${brief}`,
          },
          (v) => ({
            type: 'verdict',
            author: l.author,
            canonical_sha256: l.canonical_sha256,
            claims: v.claims,
          }),
        );
      const citations = sub?.payload?.citations ?? [];
      out.push({
        key: `verdict:${l.author}:${l.canonical_sha256}`,
        run: async (provider, signal) =>
          verdict(await citationChecksBrief(ctx.roomId, citations)).run(provider, signal),
      });
    } else if (l.type === 'score' && view.phase === 'final_vote' && !view.judging.scored.includes(ctx.seat)) {
      const debaters = l.debaters as [string, ...string[]];
      const schema = z
        .object({
          cards: z
            .array(z.object({ debater: z.enum(debaters), ...RubricCardSchema.shape }).strict())
            .min(1)
            .max(12),
        })
        .strict();
      out.push(
        modelDecision(
          'score',
          ctx.seat,
          {
            schemaName: 'debate_scores',
            schema,
            description: 'Rubric cards for the debaters.',
            system: withPersona(SYSTEM.judge, ctx.persona),
            prompt: `${topic}\nDebaters: ${debaters.join(', ')}.\nTranscript:\n${clip(transcript(view))}`,
          },
          (v) => ({ type: 'score', cards: v.cards }),
        ),
      );
    } else if (
      l.type === 'vote_continue' &&
      round?.continue_vote &&
      !round.continue_vote.voted.includes(ctx.seat)
    ) {
      out.push(
        modelDecision(
          `vote:${view.round}`,
          ctx.seat,
          {
            schemaName: 'debate_continue',
            schema: ContinueSchema,
            description: 'Continue the debate for another round, or end it.',
            system: withPersona(SYSTEM.debater, ctx.persona),
            // The seat is named so the model can find its own submissions in the transcript.
            prompt: `${topic}\nYou are ${ctx.seat}. Round ${view.round} is published. Continue or end?\n${clip(transcript(view), 6000)}`,
          },
          (v) => ({ type: 'vote_continue', choice: v.choice }),
        ),
      );
    } else if (
      l.type === 'final_vote' &&
      !view.final_vote.voted.includes(ctx.seat) &&
      l.candidates.length > 0
    ) {
      const candidates = l.candidates as [string, ...string[]];
      const schema = z.object({ approval: z.array(z.enum(candidates)).min(1).max(12) }).strict();
      out.push(
        modelDecision(
          'final_vote',
          ctx.seat,
          {
            schemaName: 'debate_final_vote',
            schema,
            description: 'Approve the debaters (other than you) who argued best.',
            system: withPersona(voterSystem(view), ctx.persona),
            prompt: `${topic}\nYou are ${ctx.seat}. Candidates: ${candidates.join(', ')}.\n${clip(transcript(view), 8000)}`,
          },
          (v) => ({ type: 'final_vote', approval: [...new Set(v.approval)] }),
        ),
      );
    }
  }
  return out;
};
