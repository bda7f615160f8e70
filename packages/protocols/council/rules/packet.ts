import { hashCanonical, Rfc3339Schema } from '@db8/core';
import { z } from 'zod';
import type { CallMeta } from './actions.ts';
import {
  ARTIFACT_PATHS,
  consensusArtifact,
  isoDate,
  isoTime,
  judgeArtifact,
  requestArtifact,
  roundArtifact,
} from './artifacts.ts';
import { type Consensus, LeanSchema } from './consensus.ts';
import { DueDateSchema, SeveritySchema, VerdictKindSchema } from './payloads.ts';
import { ROLES, RoleSchema } from './roles.ts';
import type { CouncilState } from './state.ts';
import { DegradationMarkerSchema, failureMarkers, okTurn, stageOfTurn, turnOf } from './turns.ts';

/**
 * The Final Packet (seed 001, Decision 4): the one machine contract a run produces. It is built
 * from the recorded turns alone, validated against this strict schema before anything is written,
 * and `final-packet.md` is rendered from the same object.
 */

const Score = z.number().min(0).max(1);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Ref = z.object({ path: z.string().min(1), sha256: Sha256 }).strict();

export const PACKET_FORMAT = 'db8.council.final-packet/v1';

const Tally = z
  .object({
    calls: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    /** USD of the priced calls; null when no call had a known price. */
    costUsd: z.number().nonnegative().nullable(),
    /** Calls whose model has no known price: `costUsd` is then a lower bound. */
    unpricedCalls: z.number().int().nonnegative(),
  })
  .strict();
export const UsageSchema = Tally.extend({
  byRole: z.array(Tally.extend({ role: RoleSchema }).strict()).length(ROLES.length),
}).strict();
export type Usage = z.infer<typeof UsageSchema>;

/** Sum the recorded calls (every turn's `call`, failed turns included: they were paid for). */
export function tallyUsage(calls: readonly (CallMeta | null)[]): z.infer<typeof Tally> {
  const made = calls.filter((c): c is CallMeta => c !== null);
  const priced = made.filter((c) => c.costUsd !== null);
  return {
    calls: made.length,
    inputTokens: made.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: made.reduce((n, c) => n + c.outputTokens, 0),
    // Rounded to a millionth of a dollar so the packet's canonical form does not carry float noise.
    costUsd: priced.length ? Math.round(priced.reduce((n, c) => n + (c.costUsd ?? 0), 0) * 1e6) / 1e6 : null,
    unpricedCalls: made.length - priced.length,
  };
}

function runUsage(state: CouncilState): Usage {
  const { turns } = state;
  return {
    ...tallyUsage(turns.map((t) => t.call)),
    byRole: ROLES.map((role) => ({
      role,
      ...tallyUsage(turns.filter((t) => t.role === role).map((t) => t.call)),
    })),
  };
}

/** A protocol-made next action when there is no verdict: the decision goes back to the operator. */
export const NO_VERDICT_FOLLOW_UP_DAYS = 7;

export const FinalPacketSchema = z
  .object({
    format: z.literal(PACKET_FORMAT),
    runId: z.string().min(1),
    question: z.string().min(1),
    context: z.string(),
    outputType: z.enum(['decision', 'worklog']),
    createdAt: Rfc3339Schema,
    decision: z
      .object({
        summary: z.string().min(1).max(6000),
        verdict: z.union([VerdictKindSchema, z.literal('undecided')]),
        /** Who produced the decision text: the Judge, the Synthesizer's proposal (no verdict), or nobody. */
        source: z.enum(['Judge', 'Synthesizer', 'none']),
      })
      .strict(),
    rationale: z.string().min(1),
    risks: z.array(
      z
        .object({
          risk: z.string().min(1),
          severity: SeveritySchema.nullable(),
          mitigation: z.string().nullable(),
          raisedBy: RoleSchema,
        })
        .strict(),
    ),
    nextActions: z
      .array(
        z
          .object({
            action: z.string().min(1),
            owner: z.string().min(1),
            due: DueDateSchema,
            source: z.union([RoleSchema, z.literal('protocol')]),
          })
          .strict(),
      )
      .min(1),
    scores: z
      .object({
        consensus: Score,
        confidence: Score,
        agreement: Score,
        support: Score,
        coverage: Score,
        evidence: Score,
        judgeQuality: Score.nullable(),
      })
      .strict(),
    lean: LeanSchema,
    degradation: z.object({ degraded: z.boolean(), markers: z.array(DegradationMarkerSchema) }).strict(),
    roles: z
      .array(
        z
          .object({
            role: RoleSchema,
            provider: z.string().min(1),
            model: z.string().min(1),
            scripted: z.boolean(),
            okTurns: z.number().int().nonnegative(),
            failedTurns: z.number().int().nonnegative(),
          })
          .strict(),
      )
      .length(ROLES.length),
    /** Tokens and cost of the run's model calls (runs made with `usageInPacket`). */
    usage: UsageSchema.optional(),
    /** True when any role was played by the scripted provider: this is a demo, not model output. */
    scripted: z.boolean(),
    references: z
      .object({
        request: Ref,
        rounds: z.array(Ref.extend({ round: z.number().int().min(1).max(3) }).strict()).length(3),
        consensus: Ref,
        judge: Ref,
      })
      .strict(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.degradation.degraded !== p.degradation.markers.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['degradation'],
        message: 'degraded must say whether there are markers',
      });
    }
    if (p.roles.some((r, i) => r.role !== ROLES[i])) {
      ctx.addIssue({ code: 'custom', path: ['roles'], message: `roles must be ${ROLES.join(', ')}` });
    }
    if (p.scripted !== p.roles.some((r) => r.scripted)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scripted'],
        message: 'scripted must say whether any role is scripted',
      });
    }
    if ((p.decision.source === 'Judge') !== (p.scores.judgeQuality !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scores', 'judgeQuality'],
        message: 'judgeQuality comes with a verdict',
      });
    }
  });
export type FinalPacket = z.infer<typeof FinalPacketSchema>;

/** How much of the consensus confidence survives the Judge stage: verdict 1, proposal only 0.5, nothing 0. */
export const JUDGE_FACTOR = { Judge: 1, Synthesizer: 0.5, none: 0 } as const;

function list(items: readonly string[]): string {
  return items.length === 0 ? 'none recorded' : items.join('; ');
}

/** Build the packet from the state at the end of the Judge stage. Not yet validated. */
export function buildPacket(state: CouncilState, consensus: Consensus, now: number): FinalPacket {
  const { config, turns } = state;
  const verdict = okTurn(turns, 'verdict', 'Judge')?.payload ?? null;
  const assessment = okTurn(turns, 'assessment', 'Synthesizer')?.payload ?? null;
  const judgeTurn = turnOf(turns, 'Judge', 'Judge');
  const judgeError =
    judgeTurn?.kind === 'failed' ? `${judgeTurn.error.code}: ${judgeTurn.error.message}` : 'no turn';

  let decision: FinalPacket['decision'];
  let rationale: string;
  if (verdict) {
    decision = { summary: verdict.decision, verdict: verdict.verdict, source: 'Judge' };
    rationale = verdict.rationale;
  } else if (assessment) {
    decision = { summary: assessment.proposal, verdict: 'undecided', source: 'Synthesizer' };
    rationale =
      `No Judge verdict (${judgeError}); the decision above is the Synthesizer's proposal. ` +
      `Common ground: ${list(assessment.commonGround)}. Disagreements: ${list(assessment.disagreements)}.`;
  } else {
    decision = {
      summary: 'No decision: neither the Judge nor the Synthesizer produced one.',
      verdict: 'undecided',
      source: 'none',
    };
    rationale = `No Judge verdict (${judgeError}) and no Synthesizer assessment; see the round artifacts.`;
  }

  const risks: FinalPacket['risks'] = [];
  const seen = new Set<string>();
  const addRisk = (r: FinalPacket['risks'][number]) => {
    const key = r.risk.trim().toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    risks.push(r);
  };
  for (const r of verdict?.risks ?? []) {
    addRisk({ risk: r.risk, severity: null, mitigation: r.mitigation, raisedBy: 'Judge' });
  }
  for (const role of ROLES) {
    for (const r of okTurn(turns, 'opening', role)?.payload.risks ?? []) {
      addRisk({ risk: r.risk, severity: r.severity, mitigation: null, raisedBy: role });
    }
  }

  const nextActions: FinalPacket['nextActions'] = verdict
    ? verdict.nextActions.map((a) => ({ ...a, source: 'Judge' as const }))
    : [
        {
          action: 'Decide manually or re-run the council: the Judge gave no verdict.',
          owner: 'operator',
          due: isoDate(now + NO_VERDICT_FOLLOW_UP_DAYS * 86_400_000),
          source: 'protocol' as const,
        },
      ];

  const markers = [...consensus.markers, ...failureMarkers(turns.filter((t) => stageOfTurn(t) === 'Judge'))];
  if (!verdict) {
    markers.push({
      stage: 'Judge',
      role: 'Judge',
      code: 'NO_VERDICT',
      message: `no Judge verdict (${judgeError})`,
    });
  }

  const roles = config.roster.map((entry) => {
    const mine = turns.filter((t) => t.role === entry.role);
    const failedTurns = mine.filter((t) => t.kind === 'failed').length;
    return {
      role: entry.role,
      provider: entry.provider,
      model: entry.model,
      scripted: entry.scripted,
      okTurns: mine.length - failedTurns,
      failedTurns,
    };
  });

  const ref = (path: string, value: unknown) => ({ path, sha256: hashCanonical(value) });
  return {
    format: PACKET_FORMAT,
    runId: config.runId,
    question: config.question,
    context: config.context,
    outputType: config.outputType,
    createdAt: isoTime(now),
    decision,
    rationale,
    risks,
    nextActions,
    scores: {
      consensus: consensus.consensus,
      confidence: Math.round(consensus.confidence * JUDGE_FACTOR[decision.source] * 10_000) / 10_000,
      agreement: consensus.agreement,
      support: consensus.support,
      coverage: consensus.coverage,
      evidence: consensus.evidence,
      judgeQuality: verdict ? verdict.quality : null,
    },
    lean: consensus.lean,
    degradation: { degraded: markers.length > 0, markers },
    roles,
    ...(config.usageInPacket ? { usage: runUsage(state) } : {}),
    scripted: roles.some((r) => r.scripted),
    references: {
      request: ref(ARTIFACT_PATHS.request, requestArtifact(state)),
      rounds: ([1, 2, 3] as const).map((n) => ({
        round: n,
        ...ref(ARTIFACT_PATHS.rounds[n - 1]!, roundArtifact(state, n)),
      })),
      consensus: ref(ARTIFACT_PATHS.consensus, consensusArtifact(state)),
      judge: ref(ARTIFACT_PATHS.judge, judgeArtifact(state)),
    },
  };
}
