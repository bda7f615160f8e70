import type { z } from 'zod';
import type { JsonValue } from '../json/index.ts';
import type { Visibility } from '../log/visibility.ts';

/**
 * The Protocol contract (DESIGN.md "The protocol contract"; boardgame.io's `Game` is the model).
 * A protocol is data + pure functions: no I/O, no Date.now, no Math.random. Time enters as `now`
 * (unix ms) chosen by the runtime and recorded in the log; randomness comes from the room seed
 * (`createRng(seed, label)`), so replaying the log reproduces every state exactly.
 */

/** A seat as the runtime hands it to a protocol: a stable id (e.g. `anon_3`, `p2`) and a role. */
export interface SeatInfo {
  id: string;
  role: string;
}

/** Who is looking: a seat holder, an observer, or an admin (who may see everything). */
export type Viewer = { kind: 'seat'; seat: string } | { kind: 'observer' } | { kind: 'admin' };

export interface SetupContext {
  seats: readonly SeatInfo[];
  /** The room's secret seed (hex). Committed in the genesis entry, revealed when the room closes. */
  seed: string;
  now: number;
}

export interface ActionInput<A> {
  seat: string;
  action: A;
  now: number;
}

/** A rejection says why, with a stable code clients can switch on (e.g. NOT_YOUR_TURN, PHASE_CLOSED). */
export interface Rejection {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * What `apply` and `tick` produce. `visibility` says who may read the entry that carried the input
 * (default public); a non-public entry is stored sealed and the public log carries its commitment.
 * `reveal` names earlier sealed entries (by seq) to publish now, atomically, in this entry's reveal.
 * `milestone` asks the runtime for a signed checkpoint after this entry (e.g. a round published).
 * `note` is public, protocol-chosen data the runtime records on the entry (the public entry's
 * top-level `note` field, so it is in the leaf hash and stays public even when the payload is
 * sealed) — e.g. poker's deck commitment at a deal and the deck's reveal at the hand's end. It must
 * be a pure function of the state and input (JSON only) and is never folded back: replay recomputes
 * it and refuses a log whose stored note differs.
 */
export interface Transition<S> {
  state: S;
  visibility?: Visibility;
  reveal?: readonly number[];
  milestone?: string;
  note?: JsonValue;
}

export type ApplyResult<S> = ({ ok: true } & Transition<S>) | { ok: false; error: Rejection };

/**
 * Legal actions for one seat now. `turnToken` is present only when this seat is to act, and names
 * that one turn: once an action carrying it is accepted it is never offered again (derive it from a
 * counter every accepted input bumps). The runtime relies on this to answer a fresh turn without an
 * idempotency lookup, and refuses a transition that offers the used token again.
 */
export interface Legal<LA = unknown> {
  actions: readonly LA[];
  turnToken?: string;
}

export interface Protocol<
  Config = unknown,
  State = unknown,
  Action = unknown,
  View = unknown,
  Result = unknown,
> {
  /** Registry name, e.g. `debate`, `poker`, `sealed-bid`. */
  name: string;
  /** Bumped when the meaning of stored entries changes; stored in each room's genesis entry. */
  version: number;
  configSchema: z.ZodType<Config>;
  actionSchema: z.ZodType<Action>;
  /** Which seats a room with this config has (ids and roles). */
  seats(config: Config): SeatInfo[];
  /**
   * Roles whose seats only the server takes (poker's `house`): the server joins them by naming
   * the seat; the generic join route refuses them (SEAT_RESERVED) and auto-assignment skips them.
   */
  reservedRoles?: readonly string[];
  /**
   * Roles whose seats are given, not taken (a debate's moderator and fact-checker, an auction's
   * auctioneer: they see or decide more than a player). A join takes one only as an admin or with
   * an invite for that seat; auto-assignment skips them.
   */
  privilegedRoles?: readonly string[];
  /** A principal may hold several seats of one room (default: one; a second join is SEAT_ALREADY_HELD). */
  multiSeat?: boolean;
  /**
   * Action types only the server writes (a debate's `bind_identity`, from its join hook): a seat
   * sending one — over REST, WebSocket, MCP or as a driver — is refused (ACTION_RESERVED, 403).
   */
  serverActions?: readonly string[];
  /**
   * A deadline an action makes due at once (`deadline` ≤ the action's time) is ticked in that
   * action's own append rather than by the scheduler a moment later (poker's next deal with no pause
   * between hands). Off by default: a protocol whose state between the two is worth a frame of its
   * own (sealed-bid's "every bid is in", before the reveal) keeps it.
   */
  tickWithAction?: boolean;
  setup(config: Config, ctx: SetupContext): State;
  /**
   * `seq` is the position this input will take in the log, so protocols can refer to sealed
   * entries (for reveal) without guessing.
   */
  apply(state: State, input: ActionInput<Action> & { seq: number }): ApplyResult<State>;
  /** Advance time-driven phases. Return null when nothing is due at `now`. */
  tick(state: State, now: number, seq: number): Transition<State> | null;
  /** The next instant (unix ms) at which `tick` would do something, or null. */
  deadline(state: State): number | null;
  view(state: State, viewer: Viewer): View;
  legal(state: State, seat: string): Legal;
  /** Final result once the room is over, else null. */
  result(state: State): Result | null;
  /** True once the room accepts no more input. */
  isOver(state: State): boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds protocols of every shape.
export type AnyProtocol = Protocol<any, any, any, any, any>;
