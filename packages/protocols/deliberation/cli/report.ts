import { z } from 'zod';
import {
  CoordinationSchema,
  type DeliberationState,
  PhaseSchema,
  phaseSummary,
  STATUSES,
  TopologySchema,
  VotingMethodSchema,
} from '../rules/index.ts';

/**
 * `db8 deliberate --json`: one shape whether the run was local or on a server (`--url`), so a
 * script reads either the same way (docs/cli.md lists the fields). Locally it comes from the
 * folded state; on a server from `GET /v1/debates/:id`, `…/results`, `…/audit` and the room's
 * driver calls, each parsed at the edge. `outcome` is the protocol's Outcome as is.
 */

const Nullable = <T extends z.ZodType>(t: T) => t.nullable();

export const DeliberationReportSchema = z
  .object({
    /** The session id: the room (debate) id on a server, the config's session id locally. */
    id: z.string(),
    /** The server it ran on; null for a local run. */
    url: Nullable(z.string()),
    status: z.enum(STATUSES),
    scripted: z.boolean(),
    topic: z.string(),
    topology: TopologySchema,
    coordination: CoordinationSchema,
    /** The planning style adaptive coordination chose (or the fixed one); null before planning. */
    style: Nullable(z.enum(['cpde', 'dpde'])),
    voting: VotingMethodSchema,
    winner: Nullable(z.string()),
    confidence: Nullable(z.number()),
    reachedConsensus: z.boolean(),
    rounds: z.array(
      z
        .object({
          round: z.number(),
          consensus: z.number(),
          winner: Nullable(z.string()),
          reachedConsensus: z.boolean(),
        })
        .strict(),
    ),
    phases: z.array(
      z
        .object({
          round: z.number(),
          phase: PhaseSchema,
          passes: z.number(),
          skipped: Nullable(z.string()),
          consensus: Nullable(z.number()),
        })
        .strict(),
    ),
    outcome: Nullable(z.record(z.string(), z.unknown())),
    codeVersions: z.array(
      z
        .object({
          version: z.number(),
          seat: z.string(),
          round: z.number(),
          phase: PhaseSchema,
          testPassRate: Nullable(z.number()),
          qualityScore: Nullable(z.number()),
          diff: Nullable(z.string()),
        })
        .strict(),
    ),
    turns: z.number().int(),
    failedTurns: z.number().int(),
    /** The lessons the session was given, as its first log entry (the genesis config) records them. */
    lessonsGiven: z.array(z.object({ id: z.string(), title: z.string() }).strict()),
    /** Tool calls model seats made while drafting (with --tools), as recorded in their turns. */
    toolCalls: z.number().int(),
    /** Model calls (a server's driver calls). */
    calls: z.number().int(),
    /** Log entries. */
    entries: z.number().int(),
    /** Wall-clock time of the run (on a server: from creation to its end, as the CLI saw it). */
    durationMs: z.number(),
    failure: Nullable(z.object({ code: z.string(), message: z.string() }).strict()),
    cancellation: Nullable(z.object({ by: z.string(), reason: z.string() }).strict()),
  })
  .strict();
export type DeliberationReport = z.infer<typeof DeliberationReportSchema>;

const GenesisSchema = z.object({
  kind: z.literal('genesis'),
  payload: z.object({
    config: z.object({
      lessons: z.array(z.object({ id: z.string(), title: z.string() })).default([]),
    }),
  }),
});

/** The lessons a session was given, read from its first log entry (none when it is not a genesis). */
export function lessonsOfGenesis(entry: unknown): { id: string; title: string }[] {
  const g = GenesisSchema.safeParse(entry);
  return g.success ? g.data.payload.config.lessons.map(({ id, title }) => ({ id, title })) : [];
}

type Turnish = { action: { type: string; toolCalls?: readonly unknown[] | undefined } };
const failedOf = (turns: readonly Turnish[]) => turns.filter((t) => t.action.type === 'failed').length;
const toolCallsOf = (turns: readonly Turnish[]) =>
  turns.reduce((n, t) => n + (t.action.toolCalls?.length ?? 0), 0);

export function reportFromState(
  s: DeliberationState,
  meta: { scripted: boolean; calls: number; ms: number; entries: number; genesis: unknown },
): DeliberationReport {
  const o = s.outcome;
  return DeliberationReportSchema.parse({
    id: s.config.sessionId,
    url: null,
    status: s.status,
    scripted: meta.scripted,
    topic: s.config.topic,
    topology: s.config.topology,
    coordination: s.config.coordination,
    style: s.plan?.style ?? null,
    voting: s.config.voting,
    winner: o?.winner ?? null,
    confidence: o?.confidence ?? null,
    reachedConsensus: o?.reachedConsensus ?? false,
    rounds: s.rounds.map((r) => ({
      round: r.round,
      consensus: r.confidence,
      winner: r.winner,
      reachedConsensus: r.reachedConsensus,
    })),
    phases: s.phases.map(phaseSummary),
    outcome: o,
    codeVersions: s.codeVersions.map((v) => ({
      version: v.version,
      seat: v.seat,
      round: v.round,
      phase: v.phase,
      testPassRate: v.testPassRate,
      qualityScore: v.qualityScore,
      diff: v.diff,
    })),
    turns: s.turns.length,
    failedTurns: failedOf(s.turns),
    toolCalls: toolCallsOf(s.turns),
    lessonsGiven: lessonsOfGenesis(meta.genesis),
    calls: meta.calls,
    entries: meta.entries,
    durationMs: meta.ms,
    failure: s.failure,
    cancellation: s.cancellation,
  });
}

/** What the server's routes return, as far as the report needs it (unknown keys pass). */
const DetailSchema = z.object({
  topic: z.string(),
  topology_type: TopologySchema,
  coordination_protocol: CoordinationSchema,
  plan: Nullable(z.object({ style: z.enum(['cpde', 'dpde']) })),
  rounds: z.array(
    z.object({
      responses: z.array(
        z.object({ action: z.object({ type: z.string(), toolCalls: z.array(z.unknown()).optional() }) }),
      ),
    }),
  ),
});
const ResultsSchema = z.object({
  status: z.enum(STATUSES),
  voting_method: VotingMethodSchema,
  winner: Nullable(z.string()),
  confidence: Nullable(z.number()),
  reached_consensus: z.boolean(),
  outcome: Nullable(z.record(z.string(), z.unknown())),
  rounds: z.array(
    z.object({
      round: z.number(),
      consensus: z.number(),
      winner: Nullable(z.string()),
      reached: z.boolean(),
    }),
  ),
  phases: DeliberationReportSchema.shape.phases,
  code_versions: z.array(
    z.object({
      version: z.number(),
      seat: z.string(),
      round: z.number(),
      phase: PhaseSchema,
      test_pass_rate: Nullable(z.number()),
      quality_score: Nullable(z.number()),
      diff: Nullable(z.string()),
    }),
  ),
  failure: DeliberationReportSchema.shape.failure,
  cancellation: DeliberationReportSchema.shape.cancellation,
});
const AuditSchema = z.object({ total_events: z.number().int() });
const DriversSchema = z.object({ calls: z.array(z.unknown()) });

export function reportFromServer(
  at: { id: string; url: string; scripted: boolean; ms: number },
  raw: { detail: unknown; results: unknown; audit: unknown; drivers: unknown; genesis: unknown },
): DeliberationReport {
  const d = DetailSchema.parse(raw.detail);
  const r = ResultsSchema.parse(raw.results);
  const turns = d.rounds.flatMap((x) => x.responses);
  return DeliberationReportSchema.parse({
    id: at.id,
    url: at.url,
    status: r.status,
    scripted: at.scripted,
    topic: d.topic,
    topology: d.topology_type,
    coordination: d.coordination_protocol,
    style: d.plan?.style ?? null,
    voting: r.voting_method,
    winner: r.winner,
    confidence: r.confidence,
    reachedConsensus: r.reached_consensus,
    rounds: r.rounds.map((x) => ({
      round: x.round,
      consensus: x.consensus,
      winner: x.winner,
      reachedConsensus: x.reached,
    })),
    phases: r.phases,
    outcome: r.outcome,
    codeVersions: r.code_versions.map((v) => ({
      version: v.version,
      seat: v.seat,
      round: v.round,
      phase: v.phase,
      testPassRate: v.test_pass_rate,
      qualityScore: v.quality_score,
      diff: v.diff,
    })),
    turns: turns.length,
    failedTurns: failedOf(turns),
    toolCalls: toolCallsOf(turns),
    lessonsGiven: lessonsOfGenesis(raw.genesis),
    calls: DriversSchema.parse(raw.drivers).calls.length,
    entries: AuditSchema.parse(raw.audit).total_events,
    durationMs: at.ms,
    failure: r.failure,
    cancellation: r.cancellation,
  });
}
