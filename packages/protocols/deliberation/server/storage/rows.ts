import { type DeliberationState, phaseSummary, type Turn, type TurnAction } from '../../rules/index.ts';
import { sessionUuid, turnUuid, versionUuid } from './ids.ts';

/**
 * The pure half of the projection: a deliberation's folded state → the seed's rows. Times are unix
 * ms (SQL turns them into timestamptz); JSON columns are plain values. Nothing here reads a clock:
 * the same state always gives the same rows.
 */

export interface SessionSource {
  /** The room id: `debate_sessions.debate_id` and the seed of every row id. */
  roomId: string;
  state: DeliberationState;
  /** Who created the room (`rooms.created_by`), if known. */
  initiatedBy?: string | null;
  /** When the session reached a terminal status: the ts of the entry that ended it. */
  completedAt?: number | null;
  /** The lessons' and history's domain; default `code` for code tasks, else `general`. */
  domain?: string;
}

export interface SessionRow {
  id: string;
  debate_id: string;
  topic: string;
  status: string;
  topology_type: string;
  coordination_protocol: string;
  config: unknown;
  initiated_by: string | null;
  created_at: number;
  completed_at: number | null;
  total_rounds: number;
  final_consensus_score: number | null;
  outcome: unknown;
  metadata: Record<string, unknown>;
}

export interface TurnRow {
  id: string;
  seq: number;
  round: number;
  phase: string;
  agent_id: string;
  agent_role: string;
  provider: string;
  model: string;
  content: string | null;
  confidence: number | null;
  tool_calls: unknown[];
  test_results: unknown;
  reflections: unknown[];
  metadata: Record<string, unknown>;
  at: number;
  response_time_ms: number | null;
}

export interface VersionRow {
  id: string;
  turn_id: string | null;
  language: string;
  code: string;
  version_number: number;
  quality_score: number | null;
  test_pass_rate: number | null;
  metrics: Record<string, number>;
  diff_from_previous: string | null;
  at: number;
}

export function domainOf(src: SessionSource): string {
  return src.domain ?? (src.state.config.task.kind === 'code' ? 'code' : 'general');
}

export function sessionRow(src: SessionSource): SessionRow {
  const s = src.state;
  const over = s.status !== 'running' && s.status !== 'paused';
  return {
    id: sessionUuid(src.roomId),
    debate_id: src.roomId,
    topic: s.config.topic,
    status: s.status,
    topology_type: s.config.topology,
    coordination_protocol: s.config.coordination,
    config: s.config,
    initiated_by: src.initiatedBy ?? null,
    // Setup opens the first phase at the genesis time.
    created_at: s.phases[0]?.openedAt ?? s.stepOpenedAt,
    completed_at: over ? (src.completedAt ?? lastEventAt(s)) : null,
    total_rounds: s.rounds.length,
    final_consensus_score: s.outcome?.confidence ?? null,
    outcome: s.outcome ?? {},
    metadata: {
      sessionId: s.config.sessionId,
      domain: domainOf(src),
      taskKind: s.config.task.kind,
      voting: s.config.voting,
      currentRound: s.round,
      phase: s.phase,
      reachedConsensus: s.outcome?.reachedConsensus ?? false,
      rounds: s.rounds.map((r) => ({
        round: r.round,
        confidence: r.confidence,
        winner: r.winner,
        reachedConsensus: r.reachedConsensus,
      })),
      phases: s.phases.map(phaseSummary),
      layout: { leader: s.layout.leader, hub: s.layout.hub, order: s.layout.order },
      plan: s.plan ? { style: s.plan.style } : null,
      gates: s.gates,
      forfeits: s.forfeits,
      failure: s.failure,
      cancellation: s.cancellation,
    },
  };
}

/** The latest instant the state records (used when the caller does not know the ending entry). */
export function lastEventAt(s: DeliberationState): number {
  let t = s.stepOpenedAt;
  for (const x of s.turns) t = Math.max(t, x.at);
  for (const p of s.phases) t = Math.max(t, p.openedAt, p.closedAt ?? 0);
  for (const g of s.gates) t = Math.max(t, g.openedAt, g.decidedAt ?? 0);
  for (const f of s.forfeits) t = Math.max(t, f.at);
  for (const v of s.codeVersions) t = Math.max(t, v.measuredAt ?? 0);
  return t;
}

type WithContent = Extract<TurnAction, { content: string }>;
const contentOf = (a: TurnAction): string | null => ('content' in a ? (a as WithContent).content : null);
const confidenceOf = (a: TurnAction): number | null =>
  'confidence' in a ? (a as { confidence: number }).confidence : null;

/** Everything of the action the seed's columns do not hold (questions, points, findings, …). */
function structured(a: TurnAction): Record<string, unknown> {
  const { type: _t, content: _c, confidence: _f, call: _k, ...rest } = a as Record<string, unknown>;
  const { testResults: _r, reflections: _x, code, ...body } = rest;
  return code ? { ...body, code: { language: (code as { language: string }).language } } : body;
}

export function turnRows(roomId: string, s: DeliberationState, fromSeq = 0): TurnRow[] {
  return s.turns.filter((t) => t.seq >= fromSeq).map((t) => turnRow(roomId, t));
}

function turnRow(roomId: string, t: Turn): TurnRow {
  const a = t.action;
  const call = a.call;
  const drafts = a as { testResults?: unknown; reflections?: unknown[]; toolCalls?: unknown[] };
  return {
    id: turnUuid(roomId, t.seq, t.seat),
    seq: t.seq,
    round: t.round,
    phase: t.phase,
    agent_id: t.seat,
    agent_role: t.role,
    // The model call's own provider/model when recorded, else the seat's.
    provider: call?.provider ?? t.provider,
    model: call?.model ?? t.model,
    content: contentOf(a),
    confidence: confidenceOf(a),
    tool_calls: drafts.toolCalls ?? [],
    test_results: drafts.testResults ?? {},
    reflections: drafts.reflections ?? [],
    metadata: {
      seq: t.seq,
      pass: t.pass,
      step: t.step,
      type: a.type,
      ok: a.type !== 'failed',
      audience: t.audience,
      codeVersion: t.codeVersion,
      error: a.type === 'failed' ? a.error : null,
      call: call
        ? { inputTokens: call.inputTokens, outputTokens: call.outputTokens, costUsd: call.costUsd }
        : null,
      body: structured(a),
    },
    at: t.at,
    response_time_ms: call?.latencyMs ?? null,
  };
}

export function versionRows(roomId: string, s: DeliberationState): VersionRow[] {
  const at = new Map(s.turns.map((t) => [`${t.seq}/${t.seat}`, t.at]));
  return s.codeVersions.map((v) => {
    const turnAt = at.get(`${v.turnSeq}/${v.seat}`);
    return {
      id: versionUuid(roomId, v.version),
      turn_id: turnAt === undefined ? null : turnUuid(roomId, v.turnSeq, v.seat),
      language: v.language,
      code: v.code,
      version_number: v.version,
      quality_score: v.qualityScore,
      test_pass_rate: v.testPassRate,
      metrics: v.metrics,
      diff_from_previous: v.diff,
      at: turnAt ?? lastEventAt(s),
    };
  });
}
