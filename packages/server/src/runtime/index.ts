export { Frontier } from '@db8/core';
export { RUNTIME_CODES, type RuntimeCode, RuntimeError, rejectionError, runtimeError } from './errors.ts';
export { loadMemo } from './load.ts';
export { replayRoom } from './replay.ts';
export { roomCursor } from './room-info.ts';
export { Runtime } from './runtime.ts';
export { DeadlineScheduler, type SchedulerOptions } from './scheduler.ts';
export {
  type Ack,
  AckSchema,
  type ActInput,
  type CheckpointInfo,
  type EntryAnnouncements,
  type EntryPublisher,
  type InclusionProof,
  type ProtocolRegistry,
  type ReplayReport,
  type RoomInfo,
  RoomInfoSchema,
  type RuntimeOptions,
  SeatSummarySchema,
  type StateFor,
} from './types.ts';
