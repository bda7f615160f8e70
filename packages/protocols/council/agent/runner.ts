import { randomBytes } from 'node:crypto';
import type { CallRecord, Provider } from '@db8/agents';
import { LocalRoom, truncateCodePoints } from '@db8/core';
import type { z } from 'zod';
import {
  ACTION_FOR_STAGE,
  assessableRoles,
  type CallMeta,
  CHALLENGE_MAP,
  type CouncilAction,
  type CouncilConfig,
  CouncilConfigSchema,
  type CouncilState,
  council,
  expectedRoles,
  isoDate,
  OPERATOR,
  ROLES,
  type Role,
  seatOf,
  TURN_STAGES,
  type TurnError,
  type TurnRecord,
  type TurnStage,
  turnOf,
} from '../rules/index.ts';
import { systemPrompt, userPrompt } from './prompts.ts';
import {
  assessmentSchema,
  challengeSchema,
  openingSchema,
  revisionSchema,
  SCHEMA_NAMES,
  verdictSchema,
} from './schemas.ts';

/**
 * The council driver: it runs the protocol with one provider call per role per stage, each with the
 * stage's zod schema, and submits what comes back — the validated payload, or the recorded failure.
 * It never writes content for a role. It stops at Writeback: writing artifacts and the decision
 * record is the caller's job (the CLI's local store), which then calls `completeWriteback`.
 */

export interface CouncilRequest {
  runId: string;
  question: string;
  context?: string;
  outputType?: 'decision' | 'worklog';
  stageWindowMs?: number;
  /** The degraded run this one re-runs (recorded in the config). */
  rerunOf?: string;
}

export interface CouncilCall {
  stage: TurnStage;
  role: Role;
  record: CallRecord | null;
}

export interface CouncilProgress {
  kind: 'stage' | 'turn';
  stage: string;
  role?: Role;
  ok?: boolean;
  detail?: string;
}

export interface RunCouncilOptions extends CouncilRequest {
  /** Who plays each role; one provider may play several. */
  providers: Readonly<Record<Role, Provider>>;
  clock?: () => number;
  /** Room seed (hex); random when absent. The council uses no randomness, but every room has one. */
  seed?: string;
  signal?: AbortSignal;
  onProgress?: (p: CouncilProgress) => void;
  /**
   * A degraded run's turns: each role's successful turn at a stage is submitted again as recorded
   * (its payload and the call that produced it; no new call), and only the failed turns are asked
   * again. Later turns see what the re-asked roles say now.
   */
  reuse?: readonly TurnRecord[];
}

/** A refusal the runner did not expect: a bug in the runner, never a role's failure. */
export class CouncilRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A council run is a core LocalRoom: the entries it writes are a server room's entries (genesis,
 * actions, ticks, close), so `db8 verify` and `db8 council replay` refold them like any room.
 */
export type CouncilRoom = LocalRoom<typeof council>;

export interface CouncilRun {
  room: CouncilRoom;
  /** The clock the run reads; entry time never runs back (LocalRoom lifts it). */
  clock: () => number;
  calls: CouncilCall[];
}

/** Act and insist on success: a refusal here is a bug in the runner. */
function must(room: CouncilRoom, seat: string, action: CouncilAction, now: number): void {
  const r = room.act(seat, action, now);
  if (!r.ok)
    throw new CouncilRunError(
      r.error.code,
      `${seat} ${action.type} refused: ${r.error.code} ${r.error.message}`,
    );
}

export function callMeta(r: CallRecord): CallMeta {
  return {
    provider: r.profile,
    model: r.model,
    scripted: r.scripted,
    attempts: r.attempts.length,
    repaired: r.repaired,
    inputTokens: r.usage.inputTokens,
    outputTokens: r.usage.outputTokens,
    costUsd: r.costUsd,
    latencyMs: r.durationMs,
  };
}

export function councilConfig(
  req: CouncilRequest,
  providers: Readonly<Record<Role, Provider>>,
): CouncilConfig {
  return CouncilConfigSchema.parse({
    runId: req.runId,
    question: req.question,
    context: req.context ?? '',
    outputType: req.outputType ?? 'decision',
    roster: ROLES.map((role) => {
      const p = providers[role];
      return { role, provider: p.profile, model: p.model, scripted: p.scripted };
    }),
    ...(req.stageWindowMs ? { stageWindowMs: req.stageWindowMs } : {}),
    ...(req.rerunOf ? { rerunOf: req.rerunOf } : {}),
    usageInPacket: true,
  });
}

function schemaFor(turns: CouncilState['turns'], stage: TurnStage, role: Role, now: number): z.ZodType {
  switch (stage) {
    case 'Round1':
      return openingSchema();
    case 'Round2':
      return challengeSchema(role);
    case 'Round3':
      return revisionSchema();
    case 'Consensus':
      return assessmentSchema(assessableRoles(turns));
    case 'Judge':
      return verdictSchema(isoDate(now));
  }
}

function failed(stage: TurnStage, error: TurnError, record: CallRecord | null): CouncilAction {
  return { type: 'failed', stage, error, call: record ? callMeta(record) : null };
}

/**
 * One role's turn against what that role may see (`state` may be a seat's view with sealed turns
 * dropped): the server's driver host and `runCouncil` both use it, so the prompts, schemas and
 * failure rules are the same in both places.
 */
export async function councilTurn(
  state: Pick<CouncilState, 'config' | 'turns' | 'consensus'>,
  provider: Provider,
  role: Role,
  stage: TurnStage,
  now: number,
  signal: AbortSignal | undefined,
): Promise<{ action: CouncilAction; record: CallRecord | null }> {
  if (stage === 'Round2') {
    const target = CHALLENGE_MAP[role];
    if (turnOf(state.turns, 'Round1', target)?.kind !== 'opening') {
      const error = {
        code: 'TARGET_UNAVAILABLE',
        message: `the ${target} has no round-1 opening to challenge`,
      };
      return { action: failed(stage, error, null), record: null };
    }
  }
  const schemaName = SCHEMA_NAMES[stage];
  const out = await provider.call({
    schemaName,
    schema: schemaFor(state.turns, stage, role, now),
    description: `The ${role}'s ${stage} turn for a decision council.`,
    system: systemPrompt(role, stage, schemaName),
    prompt: userPrompt(state as CouncilState, role, stage, now),
    seat: seatOf(role),
    ...(signal ? { signal } : {}),
  });
  if (!out.ok) {
    return {
      action: failed(stage, { code: out.error.code, message: out.error.message }, out.record),
      record: out.record,
    };
  }
  const type = ACTION_FOR_STAGE[stage];
  return {
    action: { type, payload: out.value, call: callMeta(out.record) } as CouncilAction,
    record: out.record,
  };
}

/** The earlier run's successful turn of `role` at `stage`, as the action that records it again. */
function reusedTurn(
  turns: readonly TurnRecord[] | undefined,
  stage: TurnStage,
  role: Role,
): CouncilAction | null {
  const t = turns ? turnOf(turns, stage, role) : undefined;
  if (!t || t.kind === 'failed') return null;
  return { type: t.kind, payload: t.payload, call: t.call } as CouncilAction;
}

/** Run Intake → … → Judge → Packetize and stop in Writeback (or aborted, if cancelled). */
export async function runCouncil(opts: RunCouncilOptions): Promise<CouncilRun> {
  const config = councilConfig(opts, opts.providers);
  const clock = opts.clock ?? Date.now;
  const room: CouncilRoom = new LocalRoom({
    protocol: council,
    config,
    seed: opts.seed ?? randomBytes(32).toString('hex'),
    now: clock(),
    id: opts.runId,
    title: truncateCodePoints(opts.question, 200),
  });
  const calls: CouncilCall[] = [];
  const progress = opts.onProgress ?? (() => {});
  room.tick(clock()); // Intake → Round1
  for (const stage of TURN_STAGES) {
    if (room.state.status !== 'running') break;
    progress({ kind: 'stage', stage });
    const roles = expectedRoles(stage);
    // The roles of a stage answer independently, so their calls run concurrently.
    const results = await Promise.all(
      roles.map((role) => {
        const kept = reusedTurn(opts.reuse, stage, role);
        if (kept) return { action: kept, record: null, reused: true };
        return councilTurn(room.state, opts.providers[role], role, stage, room.time(clock()), opts.signal);
      }),
    );
    if (opts.signal?.aborted) {
      must(
        room,
        OPERATOR,
        { type: 'abort', error: { code: 'CANCELLED', message: 'the run was cancelled' } },
        clock(),
      );
      break;
    }
    // Submitted in roster order, whatever order the calls finished in, so the log is deterministic.
    for (const [i, role] of roles.entries()) {
      const result = results[i]!;
      const { action, record } = result;
      const reused = 'reused' in result;
      if (!reused) calls.push({ stage, role, record });
      const r = room.act(seatOf(role), action, clock());
      const ok = action.type !== 'failed';
      progress({
        kind: 'turn',
        stage,
        role,
        ok,
        ...(reused
          ? { detail: 'reused' }
          : ok
            ? {}
            : { detail: (action as { error: TurnError }).error.code }),
      });
      // Past the stage window the protocol has closed the stage; the tick below records the timeouts.
      if (!r.ok && r.error.code !== 'STAGE_EXPIRED')
        throw new CouncilRunError(r.error.code, `${role} ${action.type}: ${r.error.message}`);
    }
    room.tick(clock());
  }
  if (room.state.stage === 'Writeback') progress({ kind: 'stage', stage: 'Writeback' });
  return { room, clock, calls };
}

/** Record the writeback receipt: the run completes. */
export function completeWriteback(run: CouncilRun, recordPath: string): void {
  const sha = run.room.state.packetSha256;
  if (!sha) throw new Error('no packet to write back');
  must(run.room, OPERATOR, { type: 'writeback', recordPath, packetSha256: sha }, run.clock());
}

/** A structural failure (storage, …) ends the run as aborted. */
export function abortCouncil(run: CouncilRun, error: TurnError): void {
  if (run.room.state.status === 'running') must(run.room, OPERATOR, { type: 'abort', error }, run.clock());
}
