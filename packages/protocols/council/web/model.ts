import {
  type CouncilView,
  CouncilViewSchema,
  expectedRoles,
  ROLES,
  type Role,
  STAGES,
  type Stage,
  TURN_STAGES,
  type TurnRecord,
  type TurnStage,
} from '../rules/index.ts';

// The council page's reading of a room view: the view parsed with the protocol's own schema, the
// roles × stages grid and the eight-state stepper. Pure, so it is tested without a browser.

export type { CouncilView, Role, TurnStage };
export const GRID_ROLES = ROLES;
export const GRID_STAGES = TURN_STAGES;

export type ReadCouncil = { view: CouncilView; problem: null } | { view: null; problem: string };

/** The view of a room state, or why it is not a council view (a server/UI mismatch, shown as such). */
export function readCouncil(raw: unknown): ReadCouncil | null {
  if (raw === null || raw === undefined) return null;
  const r = CouncilViewSchema.safeParse(raw);
  if (r.success) return { view: r.data, problem: null };
  const issue = r.error.issues[0];
  return { view: null, problem: `unexpected council view: ${issue?.path.join('.')} ${issue?.message}` };
}

type Sealed = Extract<CouncilView['turns'][number], { kind: 'sealed' }>;
type Failed = Extract<TurnRecord, { kind: 'failed' }>;

export type Cell =
  /** The role has no turn at this stage (only the Synthesizer assesses, only the Judge judges). */
  | { state: 'na' }
  /** Not played yet: `live` when the stage is open and waits for this role. */
  | { state: 'empty'; live: boolean }
  /** Played, but sealed to its author until the round closes. */
  | { state: 'sealed'; seq: number }
  | { state: 'failed'; turn: Failed }
  | { state: 'ok'; turn: Exclude<TurnRecord, { kind: 'failed' }> };

function stageOf(t: CouncilView['turns'][number]): TurnStage {
  if (t.kind === 'sealed') return t.stage as TurnStage;
  if (t.kind === 'failed') return t.stage;
  const byKind = {
    opening: 'Round1',
    challenge: 'Round2',
    revision: 'Round3',
    assessment: 'Consensus',
    verdict: 'Judge',
  } as const;
  return byKind[t.kind];
}

export function cellOf(view: CouncilView, role: Role, stage: TurnStage): Cell {
  if (!expectedRoles(stage).includes(role)) return { state: 'na' };
  const t = view.turns.find((x) => x.role === role && stageOf(x) === stage);
  if (!t) return { state: 'empty', live: view.stage === stage && view.waitingFor.includes(role) };
  if (t.kind === 'sealed') return { state: 'sealed', seq: (t as Sealed).seq };
  if (t.kind === 'failed') return { state: 'failed', turn: t };
  return { state: 'ok', turn: t };
}

/** Cells that will ever hold a turn, and how many of them do (played, sealed or failed). */
export function gridProgress(view: CouncilView): { filled: number; total: number } {
  let filled = 0;
  let total = 0;
  for (const stage of TURN_STAGES) {
    for (const role of ROLES) {
      const c = cellOf(view, role, stage);
      if (c.state === 'na') continue;
      total++;
      if (c.state !== 'empty') filled++;
    }
  }
  return { filled, total };
}

export type StepState = 'done' | 'degraded' | 'current' | 'pending' | 'aborted';
export type Step = { stage: Stage; state: StepState; detail: string | null };

/** The eight states in order, each done (ok or degraded), current, pending, or where the run aborted. */
export function steps(view: CouncilView): Step[] {
  return STAGES.map((stage) => {
    const left = view.transitions.find((t) => t.from === stage);
    if (left?.status === 'aborted') return { stage, state: 'aborted', detail: left.detail };
    if (left?.status === 'degraded') return { stage, state: 'degraded', detail: left.detail };
    if (left) return { stage, state: 'done', detail: left.detail };
    if (view.stage === stage && view.status === 'running') return { stage, state: 'current', detail: null };
    return { stage, state: 'pending', detail: null };
  });
}

export function pct(x: number): string {
  return `${Math.round(x * 1000) / 10}%`;
}

/** A one-line summary of a played turn for its grid cell. */
export function cellSummary(turn: Exclude<TurnRecord, { kind: 'failed' }>): { head: string; text: string } {
  switch (turn.kind) {
    case 'opening':
    case 'revision':
      return { head: `${turn.payload.stance} · ${pct(turn.payload.confidence)}`, text: turn.payload.claim };
    case 'challenge':
      return {
        head: `→ ${turn.payload.target} · ${turn.payload.challenges.length} point(s)`,
        text: turn.payload.challenges[0]?.challenge ?? '',
      };
    case 'assessment':
      return { head: `${turn.payload.positions.length} position(s) read`, text: turn.payload.proposal };
    case 'verdict':
      return { head: turn.payload.verdict.replaceAll('_', ' '), text: turn.payload.decision };
  }
}
