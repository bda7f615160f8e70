import type { Runtime } from '../runtime/runtime.ts';

/**
 * The slices of the room Runtime that each side of the server uses, as typed `Pick`s of the real
 * class: what crosses the seam is exactly what the runtime returns (RoomInfo, StateFor, Ack, …), so
 * no caller casts its answers. A test that wants to change one method wraps a real Runtime.
 */

/** What the REST, MCP and docs routes use. */
export type RoomRuntime = Pick<
  Runtime,
  | 'protocols'
  | 'serverKey'
  | 'origin'
  | 'createRoom'
  | 'listRooms'
  | 'getRoom'
  | 'join'
  | 'act'
  | 'end'
  | 'stateFor'
  | 'entries'
  | 'proof'
  | 'checkpoints'
  | 'export'
>;

/** What the realtime fan-out uses: the committed entries and state this node already holds, else reads. */
export type FeedRuntime = Pick<Runtime, 'entries' | 'stateFor' | 'stateNow' | 'expectSeq' | 'committedSince'>;

/** What an app is built on: the routes' slice and the fan-out's. */
export type AppRuntime = RoomRuntime & FeedRuntime;

/** What protocol modules use (their routes, background work and drivers). */
export type ModuleRuntime = Pick<
  Runtime,
  | 'store'
  | 'protocols'
  | 'serverKey'
  | 'now'
  | 'createRoom'
  | 'listRooms'
  | 'getRoom'
  | 'seatOf'
  | 'join'
  | 'act'
  | 'serverAct'
  | 'end'
  | 'watchActs'
  | 'tick'
  | 'stateFor'
  | 'protocolState'
  | 'entries'
  | 'proof'
  | 'checkpoints'
  | 'expectSeq'
  | 'forget'
>;
