import { hashCanonical } from '@db8/core';
import { CHALLENGE_MAP, ROLES } from './roles.ts';
import { ROUND_STAGES, type Stage, type TurnStage } from './stages.ts';
import type { CouncilState } from './state.ts';
import { stageOfTurn, type TurnRecord, turnOf } from './turns.ts';

/**
 * The run's JSON artifacts as pure projections of state (seed 001, Decision 5). The runner writes
 * exactly these objects; the Final Packet references each by path and the SHA-256 of its RFC 8785
 * canonical form, so replay can rebuild them from the log and compare.
 */

export const ARTIFACT_PATHS = {
  request: 'request.json',
  rounds: ['rounds/round-1.json', 'rounds/round-2.json', 'rounds/round-3.json'],
  consensus: 'consensus.json',
  judge: 'judge.json',
  packet: 'final-packet.json',
  markdown: 'final-packet.md',
  /** The run's log: a db8 journal bundle, the entry format of a server room (`db8 verify` checks it). */
  log: 'journal.jsonl',
  /** The ordered, timestamped state-transition log (seed 001: "persist a state transition log per run"). */
  transitions: 'transitions.json',
} as const;

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** YYYY-MM-DD (UTC) of an instant. */
export function isoDate(ms: number): string {
  return isoTime(ms).slice(0, 10);
}

function enteredAt(state: CouncilState, stage: Stage): string | null {
  const t = state.transitions.find((x) => x.to === stage);
  return t ? isoTime(t.at) : null;
}

function leftAt(state: CouncilState, stage: Stage): string | null {
  const t = state.transitions.find((x) => x.from === stage);
  return t ? isoTime(t.at) : null;
}

export type TurnArtifact = {
  role: (typeof ROLES)[number];
  status: 'ok' | 'failed' | 'missing';
  seq: number | null;
  at: string | null;
  payload: unknown;
  payloadSha256: string | null;
  error: { code: string; message: string } | null;
  call: TurnRecord['call'];
};

export function turnArtifact(
  turns: readonly TurnRecord[],
  stage: TurnStage,
  role: TurnArtifact['role'],
): TurnArtifact {
  const t = turnOf(turns, stage, role);
  if (!t) {
    return {
      role,
      status: 'missing',
      seq: null,
      at: null,
      payload: null,
      payloadSha256: null,
      error: null,
      call: null,
    };
  }
  const failed = t.kind === 'failed';
  return {
    role,
    status: failed ? 'failed' : 'ok',
    seq: t.seq,
    at: isoTime(t.at),
    payload: failed ? null : t.payload,
    payloadSha256: failed ? null : hashCanonical(t.payload),
    error: failed ? t.error : null,
    call: t.call,
  };
}

export function requestArtifact(state: CouncilState) {
  const c = state.config;
  return {
    format: 'db8.council.request/v1' as const,
    runId: c.runId,
    question: c.question,
    context: c.context,
    outputType: c.outputType,
    roster: c.roster,
    stageWindowMs: c.stageWindowMs,
    // Only a re-run says so: earlier runs' request artifacts stay as they were written.
    ...(c.rerunOf ? { rerunOf: c.rerunOf } : {}),
    openedAt: isoTime(state.openedAt),
  };
}

export function roundArtifact(state: CouncilState, round: 1 | 2 | 3) {
  const stage = ROUND_STAGES[round - 1]!;
  return {
    format: 'db8.council.round/v1' as const,
    runId: state.config.runId,
    round,
    openedAt: enteredAt(state, stage),
    closedAt: leftAt(state, stage),
    challengeMap: round === 2 ? { ...CHALLENGE_MAP } : null,
    turns: ROLES.map((role) => turnArtifact(state.turns, stage, role)),
  };
}

export function consensusArtifact(state: CouncilState) {
  return {
    format: 'db8.council.consensus/v1' as const,
    runId: state.config.runId,
    openedAt: enteredAt(state, 'Consensus'),
    closedAt: leftAt(state, 'Consensus'),
    assessment: turnArtifact(state.turns, 'Consensus', 'Synthesizer'),
    consensus: state.consensus,
  };
}

export function judgeArtifact(state: CouncilState) {
  return {
    format: 'db8.council.judge/v1' as const,
    runId: state.config.runId,
    openedAt: enteredAt(state, 'Judge'),
    closedAt: leftAt(state, 'Judge'),
    verdict: turnArtifact(state.turns, 'Judge', 'Judge'),
  };
}

/** The run's state-transition log as its own artifact (written beside the others; not in the packet). */
export function transitionsArtifact(state: CouncilState) {
  return {
    format: 'db8.council.transitions/v1' as const,
    runId: state.config.runId,
    transitions: state.transitions,
  };
}

/** One line per transition, for `db8 council show`: when, from → to, status and detail. */
export function transitionLines(state: Pick<CouncilState, 'transitions'>): string[] {
  return state.transitions.map(
    (t) =>
      `${isoTime(t.at)}  #${t.seq}  ${t.from ?? '·'} → ${t.to ?? '·'}  ${t.status}${t.detail ? `  ${t.detail}` : ''}`,
  );
}

/** Every JSON artifact by relative path (the packet and log are added by the runner). */
export function stageArtifacts(state: CouncilState): Record<string, unknown> {
  return {
    [ARTIFACT_PATHS.request]: requestArtifact(state),
    [ARTIFACT_PATHS.rounds[0]]: roundArtifact(state, 1),
    [ARTIFACT_PATHS.rounds[1]]: roundArtifact(state, 2),
    [ARTIFACT_PATHS.rounds[2]]: roundArtifact(state, 3),
    [ARTIFACT_PATHS.consensus]: consensusArtifact(state),
    [ARTIFACT_PATHS.judge]: judgeArtifact(state),
  };
}

/** Turns in a stage, for views and indexes, in roster order. */
export function stageTurns(state: CouncilState, stage: TurnStage): TurnRecord[] {
  return ROLES.flatMap((r) => state.turns.filter((t) => t.role === r && stageOfTurn(t) === stage));
}
