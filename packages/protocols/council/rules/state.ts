import { z } from 'zod';
import { TurnErrorSchema } from './actions.ts';
import { CouncilConfigSchema } from './config.ts';
import { ConsensusSchema } from './consensus.ts';
import { FinalPacketSchema } from './packet.ts';
import { StageSchema, TransitionSchema } from './stages.ts';
import { TurnRecordSchema } from './turns.ts';

/** A council run's state: plain JSON, folded from the log. A schema so a snapshot can be checked. */

const Time = z.number().int();
const Seq = z.number().int().nonnegative();

export const RunStatusSchema = z.enum(['running', 'completed', 'aborted']);

export const CouncilStateSchema = z
  .object({
    config: CouncilConfigSchema,
    stage: StageSchema,
    status: RunStatusSchema,
    /** Bumped by every accepted transition. */
    counter: z.number().int().nonnegative(),
    openedAt: Time,
    stageOpenedAt: Time,
    /** When missing turns of the current stage count as timed out (null outside turn stages). */
    stageDeadline: Time.nullable(),
    /** Set when the current stage has all it waits for; the next tick (due now) moves on. */
    readyAt: Time.nullable(),
    /** The ordered, timestamped transition log (seed 001, Decision 2). */
    transitions: z.array(TransitionSchema),
    turns: z.array(TurnRecordSchema),
    /** Seqs of sealed round entries published so far (each round is revealed when it closes). */
    revealed: z.array(Seq),
    consensus: ConsensusSchema.nullable(),
    packet: FinalPacketSchema.nullable(),
    packetSha256: z.string().nullable(),
    writeback: z
      .object({ recordPath: z.string(), packetSha256: z.string(), at: Time, seq: Seq })
      .strict()
      .nullable(),
    abort: z.object({ stage: StageSchema, error: TurnErrorSchema, at: Time, seq: Seq }).strict().nullable(),
  })
  .strict();
export type CouncilState = z.infer<typeof CouncilStateSchema>;

/** What `result()` gives once the run is over. */
export const CouncilResultSchema = z
  .object({
    status: z.enum(['completed', 'aborted']),
    runId: z.string(),
    packetSha256: z.string().nullable(),
    recordPath: z.string().nullable(),
    abort: TurnErrorSchema.nullable(),
  })
  .strict();
export type CouncilResult = z.infer<typeof CouncilResultSchema>;
