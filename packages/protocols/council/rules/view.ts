import type { Legal, Viewer } from '@db8/core';
import { z } from 'zod';
import { ACTION_FOR_STAGE } from './actions.ts';
import { CouncilConfigSchema } from './config.ts';
import { ConsensusSchema } from './consensus.ts';
import { FinalPacketSchema } from './packet.ts';
import { CHALLENGE_MAP, OPERATOR, RoleSchema, roleOfSeat, seatOf } from './roles.ts';
import { isRoundStage, StageSchema, TransitionSchema } from './stages.ts';
import { type CouncilState, CouncilStateSchema, RunStatusSchema } from './state.ts';
import { expectedRoles, isTurnStage, missingRoles } from './transitions.ts';
import { stageOfTurn, type TurnRecord, TurnRecordSchema, turnOf } from './turns.ts';

/**
 * What one viewer may see. The one secrecy rule: a round turn is sealed to its author (and admins)
 * until its round closes, so the roles' openings, challenges and revisions are independent. The
 * rest of a run — the Consensus assessment, the verdict, the packet — is public.
 */

export const SealedTurnSchema = z
  .object({
    kind: z.literal('sealed'),
    role: RoleSchema,
    seq: z.number().int(),
    at: z.number().int(),
    stage: StageSchema,
  })
  .strict();

export const CouncilViewSchema = z
  .object({
    config: CouncilConfigSchema,
    stage: StageSchema,
    status: RunStatusSchema,
    deadline: z.number().int().nullable(),
    you: z
      .object({ kind: z.enum(['role', 'operator', 'observer', 'admin']), seat: z.string().nullable() })
      .strict(),
    transitions: z.array(TransitionSchema),
    turns: z.array(z.union([TurnRecordSchema, SealedTurnSchema])),
    /** Roles the live stage still waits for. */
    waitingFor: z.array(z.string()),
    consensus: ConsensusSchema.nullable(),
    packet: FinalPacketSchema.nullable(),
    packetSha256: z.string().nullable(),
    writeback: CouncilStateSchema.shape.writeback,
    abort: CouncilStateSchema.shape.abort,
  })
  .strict();
export type CouncilView = z.infer<typeof CouncilViewSchema>;

export const CouncilLegalActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['opening', 'revision', 'assessment', 'verdict']) }).strict(),
  z.object({ type: z.literal('challenge'), target: z.string() }).strict(),
  z.object({ type: z.literal('failed'), stage: StageSchema }).strict(),
  z.object({ type: z.literal('writeback'), packetSha256: z.string() }).strict(),
  z.object({ type: z.literal('abort') }).strict(),
]);
export type CouncilLegalAction = z.infer<typeof CouncilLegalActionSchema>;

function mayRead(state: CouncilState, viewer: Viewer, turn: TurnRecord): boolean {
  if (viewer.kind === 'admin' || !isRoundStage(stageOfTurn(turn))) return true;
  if (state.revealed.includes(turn.seq) || (turn.kind === 'failed' && turn.error.code === 'STAGE_TIMEOUT'))
    return true;
  return viewer.kind === 'seat' && viewer.seat === seatOf(turn.role);
}

function who(viewer: Viewer): CouncilView['you'] {
  if (viewer.kind !== 'seat') return { kind: viewer.kind, seat: null };
  if (viewer.seat === OPERATOR) return { kind: 'operator', seat: OPERATOR };
  return roleOfSeat(viewer.seat) ? { kind: 'role', seat: viewer.seat } : { kind: 'observer', seat: null };
}

export function viewOf(state: CouncilState, viewer: Viewer): CouncilView {
  return {
    config: state.config,
    stage: state.stage,
    status: state.status,
    deadline: state.status === 'running' ? (state.readyAt ?? state.stageDeadline) : null,
    you: who(viewer),
    transitions: state.transitions,
    turns: state.turns.map((t) =>
      mayRead(state, viewer, t)
        ? t
        : { kind: 'sealed' as const, role: t.role, seq: t.seq, at: t.at, stage: stageOfTurn(t) },
    ),
    waitingFor: missingRoles(state),
    consensus: state.consensus,
    packet: state.packet,
    packetSha256: state.packetSha256,
    writeback: state.writeback,
    abort: state.abort,
  };
}

export function legalFor(state: CouncilState, seat: string): Legal<CouncilLegalAction> {
  if (state.status !== 'running') return { actions: [] };
  if (seat === OPERATOR) {
    const abort: CouncilLegalAction = { type: 'abort' };
    if (state.stage === 'Writeback' && state.packetSha256) {
      return { actions: [{ type: 'writeback', packetSha256: state.packetSha256 }, abort] };
    }
    return { actions: [abort] };
  }
  const role = roleOfSeat(seat);
  const stage = state.stage;
  if (
    !role ||
    !isTurnStage(stage) ||
    !expectedRoles(stage).includes(role) ||
    turnOf(state.turns, stage, role)
  ) {
    return { actions: [] };
  }
  const type = ACTION_FOR_STAGE[stage];
  const main: CouncilLegalAction = type === 'challenge' ? { type, target: CHALLENGE_MAP[role] } : { type };
  return { actions: [main, { type: 'failed', stage }] };
}
