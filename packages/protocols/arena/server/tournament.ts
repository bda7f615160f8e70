import { canonicalize } from '@db8/core';
import { type ModuleRuntime, RuntimeError } from '@db8/server/kit';
import type { Game } from '../cli/game.ts';
import { type ArenaAction, type ArenaState, type Match, ORGANIZER } from '../rules/index.ts';
import { Aborted, MirroredMatchRoom, type Pace } from './match-room.ts';
import { liveMatch } from './outside.ts';

/**
 * The creator every match room is opened by (`arena` or `arena@<node>`): no principal's id has this
 * form (agents `agt_…`, people and drivers their own prefixes), so it marks the rooms whose seats the
 * tournament gives (index.ts refuses a stranger's join to them).
 */
export const MATCH_CREATOR = 'arena';
export const isMatchRoom = (createdBy: string | null): boolean =>
  createdBy === MATCH_CREATOR || (createdBy?.startsWith(`${MATCH_CREATOR}@`) ?? false);

/**
 * A tournament's matches played by the server, from its log (cluster.ts says which process plays
 * which, and writes the rounds and the close): each match in a real match room, its result appended
 * with that room's id and signed tree head. A match starts from whatever the log and its rooms say,
 * so a boot or a takeover by another node resumes where the last player stopped:
 *
 * - a match with a result is never played again;
 * - a match room that closed normally but whose result was not appended yet is reported as it is;
 * - a match room left half-played (its driver died) is ended as abandoned and the match replayed
 *   in a new room (`<tournament>-<match>-r2`, …) from its scheduled seed: the scripted entrants play
 *   it exactly as before, and the abandoned room stays on the server, ended, for anyone to read.
 *
 * The organizer's writes are the server's own (no principal); the rules refuse a second result for
 * a match or a schedule that is not due, so two drivers racing for a moment cannot double anything.
 */

export interface DriveOptions {
  runtime: ModuleRuntime;
  game: Game;
  clock: () => number;
  /** False once this node must stop (lease lost, server closing). */
  live: () => boolean;
  /** The process playing, recorded as the match room's creator (`arena@<node>`). */
  node?: string;
  /** Awaited before each write of a match room (match-room.ts). */
  pace?: Pace;
}

/** Attempts at one match before the driver gives up on the tournament (a deterministic failure). */
const MAX_ATTEMPTS = 3;

export const matchRoomId = (tournament: string, match: string, attempt: number) =>
  attempt === 1 ? `${tournament}-${match}` : `${tournament}-${match}-r${attempt}`;

/** Writes as the organizer; a refusal means another driver got there first (the caller rereads the log). */
export async function organizer(o: DriveOptions, room: string, action: ArenaAction): Promise<boolean> {
  if (!o.live()) throw new Aborted();
  try {
    await o.runtime.act(room, { seat: ORGANIZER, action });
    return true;
  } catch (err) {
    if (
      err instanceof RuntimeError &&
      ['ALREADY_REPORTED', 'NOT_DUE', 'CLOSED', 'ROOM_CLOSED'].includes(err.code)
    )
      return false;
    throw err;
  }
}

/**
 * Plays match `m` to its result, which it appends: the caller holds the match (cluster.ts), so no
 * other process touches its rooms meanwhile. Returns the room reported.
 */
export async function playMatch(
  o: DriveOptions,
  tournament: string,
  s: ArenaState,
  m: Match,
): Promise<string> {
  // Why each attempt failed, for the error that gives up (a deterministic failure repeats its reason).
  const reasons: string[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS + 1; attempt++) {
    const id = matchRoomId(tournament, m.id, attempt);
    const existing = await o.runtime.getRoom(id).catch((err) => {
      if (err instanceof RuntimeError && err.code === 'ROOM_NOT_FOUND') return null;
      throw err;
    });
    if (existing) {
      const r = await o.runtime.protocolState(id);
      if (r.closed && o.game.protocol.isOver(r.state)) return report(o, tournament, m, id, null);
      // Half-played by a driver that died, or ended as abandoned: this attempt is spent.
      if (!r.closed)
        await o.runtime
          .end(id, { by: 'arena', reason: 'abandoned: its driver stopped mid-match; replayed in a new room' })
          .catch(() => {});
      continue;
    }
    if (attempt > MAX_ATTEMPTS) break;
    const mirror = await open(o, tournament, s, m, id).catch((err) => {
      // Another driver (one that has not yet noticed it lost the lease) opened it first: look again.
      if (err instanceof RuntimeError && err.code === 'ROOM_EXISTS') return null;
      throw err;
    });
    if (!mirror) {
      attempt--;
      continue;
    }
    try {
      await o.game.play(mirror, s.config, m, () => mirror.flush());
      await mirror.flush();
      // A live room (outside seats) is read, not predicted: the server's record is the only result.
      if (!(mirror instanceof MirroredMatchRoom)) return report(o, tournament, m, id, null);
    } catch (err) {
      if (err instanceof Aborted || !o.live()) throw new Aborted();
      // A refusal on the server that the mirror accepted: end this room, try the match afresh.
      reasons.push(`${id}: ${(err as Error).message}`);
      await o.runtime.end(id, { by: 'arena', reason: `failed: ${(err as Error).message}` }).catch(() => {});
      continue;
    }
    return report(o, tournament, m, id, mirror.result());
  }
  throw new Error(
    `match ${m.id}: ${MAX_ATTEMPTS} attempts failed (${reasons.join('; ') || 'no room played'})`,
  );
}

async function open(o: DriveOptions, tournament: string, s: ArenaState, m: Match, id: string) {
  const config = o.game.config(s.config, m);
  const now = o.clock();
  await o.runtime.createRoom({
    protocol: o.game.protocol.name,
    config,
    id,
    seed: m.seed,
    now,
    title: `${s.config.name}: ${m.id}`,
    createdBy: o.node ? `${MATCH_CREATOR}@${o.node}` : MATCH_CREATOR,
  });
  const live = await liveMatch(o, tournament, s, m, id);
  if (live) return live;
  return new MirroredMatchRoom(o.runtime, id, {
    protocol: o.game.protocol,
    config,
    seed: m.seed,
    now,
    clock: o.clock,
    live: o.live,
    ...(o.pace ? { pace: o.pace } : {}),
  });
}

/** Appends the closed match room's result with its signed tree head. `expected`: the mirror's result. */
async function report(
  o: DriveOptions,
  tournament: string,
  m: Match,
  id: string,
  expected: unknown,
): Promise<string> {
  const r = await o.runtime.protocolState(id);
  if (!r.closed) throw new Error(`match room ${id} did not close`);
  const result = o.game.protocol.result(r.state);
  const placements = o.game.placements(result, m);
  // Instants may differ (the deadline scheduler may tick before the player does); the outcome may not.
  if (expected !== null && canonicalize(placements) !== canonicalize(o.game.placements(expected, m)))
    throw new Error(`match room ${id}: the server's outcome differs from the one its player folded`);
  // A checkpoint of the head (the close entry) is signed if the newest lags: the head a verifier finds last.
  await o.runtime.proof(id, r.seq);
  const last = (await o.runtime.checkpoints(id)).at(-1);
  if (!last) throw new Error(`match room ${id} has no checkpoint`);
  const hands = o.game.hands?.(result);
  await organizer(o, tournament, {
    type: 'result',
    match: m.id,
    room: id,
    head: { size: last.size, rootHash: last.rootHash, note: last.note },
    placements,
    ...(hands === undefined ? {} : { hands }),
  });
  return id;
}
