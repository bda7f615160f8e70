import type { AnyProtocol, Legal, Viewer } from '@db8/core';
import { type ArenaConfig, isOutsideKind, type Match, type Placement } from '../rules/index.ts';
import type { CostMeter } from './cost.ts';

/**
 * The match room a game plays: what a game's `play` may call. Core's LocalRoom satisfies it (`db8
 * arena run`), and so does the server's mirrored match room (server/match-room.ts), which folds
 * each input at once in a LocalRoom mirror and writes it through to a real server room — so a game's
 * body stays synchronous and one body plays in both places.
 */
export interface MatchRoom {
  /** The room's id (a protocol may bind actions to it, e.g. a debate submission's room_id). */
  readonly id: string;
  readonly closed: boolean;
  /** A seat's action; throws when refused. */
  must(seat: string, action: unknown): unknown;
  /** Ticks at the protocol's next deadline; null when none is set. */
  advance(): unknown;
  view(viewer: Viewer): unknown;
  legal(seat: string): Legal;
  /**
   * Only on a server match room with seats played from outside (outside and person entrants,
   * server/live-room.ts): writes what is queued, then waits in real time until the room moves (an
   * outside seat's move, or a deadline passing, which it ticks) and reads it back. A game calls it
   * instead of `advance` when a seat it does not play is due: time is never jumped there.
   */
  wait?(): Promise<void>;
}

/** Entrants that play their own seat through the room's API (an outside agent, a signed-in person). */
export const playsOutside = (arena: ArenaConfig, name: string): boolean =>
  isOutsideKind(arena.entrants.find((e) => e.name === name)?.kind);

/** `room.wait`, which a game with an outside seat needs (a room without it is a runner's bug). */
export function waitFor(room: MatchRoom): Promise<void> {
  if (!room.wait) throw new Error(`match room ${room.id} cannot wait for outside seats`);
  return room.wait();
}

/**
 * What a tournament runner needs of a game it plays with scripted (and, where the game says so, model) entrants — `db8 arena run` in
 * core's LocalRoom, the server in a real match room: how to open a match room, play it to its close, and read
 * the placements back from the room's result — the same function `db8 arena verify` applies to a
 * refolded match log, so a reported placement is checked against the log, not taken on trust. The
 * composition root supplies the games (packages/app/src/arena-games.ts): a protocol never imports
 * another.
 */

export interface Game {
  /** The match room's protocol. */
  protocol: AnyProtocol;
  /** Strategies a scripted entrant of this game may name. */
  strategies: readonly string[];
  /** Whether model entrants (`kind: model`) may play: the game drives them through provider profiles. */
  models?: boolean;
  /**
   * Whether outside and person entrants may play on a server: the game leaves their seats alone and
   * waits (`room.wait`) whenever one is due, so they act through the room's own API.
   */
  outside?: boolean;
  /**
   * The match room's seat of the match's `index`-th entrant (needed with `outside`: who to seat
   * where; a server names the entrant beside it on the match room's page).
   */
  seat?(index: number): string;
  /**
   * The match protocol keeps who holds which seat secret until its room closes (a debate's anonymous
   * seats): a server names the entrants beside the seats only once the room has closed with the
   * result the tournament took (the protocol's end, which unmasks them).
   */
  seatsMaskedUntilClose?: boolean;
  /**
   * What the match's `index`-th entrant is told privately to play it (a sealed-bid bidder's value;
   * a poker seat's window and hands — never cards, which it reads from its own view of the room).
   */
  brief?(match: Match, index: number, arena: ArenaConfig): Record<string, unknown>;
  config(arena: ArenaConfig, match: Match): unknown;
  /**
   * Plays the room to its close; yields (`pause`) now and then so matches interleave. Model
   * entrants' calls and fallbacks go into `meter` (the match's cost report; a runner that does not
   * report cost passes none).
   */
  play(
    room: MatchRoom,
    arena: ArenaConfig,
    match: Match,
    pause: () => Promise<void>,
    meter?: CostMeter,
  ): Promise<void>;
  /** The entrants' placements from the room's recorded result and the match's seed. */
  placements(result: unknown, match: Match): Placement[];
  /** How many hands the match played, for games scored per hand (poker's bb/100). */
  hands?(result: unknown): number;
}

/** Competition ranking by score, best first (equal scores share a place: 1, 1, 3). */
export function placeByScore(entrants: readonly string[], scores: readonly number[]): Placement[] {
  return entrants.map((entrant, i) => ({
    entrant,
    score: scores[i]!,
    place: 1 + scores.filter((s) => s > scores[i]!).length,
  }));
}

/** The games by protocol name. */
export type Games = Readonly<Record<string, Game>>;

/**
 * The game for a tournament, or why it cannot be run here. `onServer`: outside and person entrants
 * play too, in a game that leaves their seats to them (`outside`).
 */
export function gameFor(games: Games, arena: ArenaConfig, onServer = false): Game | string {
  const g = games[arena.game];
  if (!g) {
    const names = Object.keys(games);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
    return `db8 arena run plays ${list} locally; ${arena.game} matches need a server`;
  }
  for (const e of arena.entrants) {
    if (e.kind === 'model' && g.models) continue;
    if ((e.kind === 'outside' || e.kind === 'person') && onServer && g.outside) continue;
    if (e.kind === 'model')
      return `entrant ${e.name} is a model: db8 arena run plays ${arena.game} with scripted entrants only`;
    if (e.kind !== 'scripted')
      return (
        `entrant ${e.name} is ${e.kind === 'person' ? 'a person' : 'an outside agent'}, who plays its own seat ` +
        `through a server's API, and db8 arena run plays every seat itself (scripted and model entrants)` +
        (g.outside
          ? `: make the tournament on a server instead (db8 room create --protocol arena --config <the spec as ` +
            `JSON>, runBy: server), which seats ${e.name}'s claimant and waits for it (docs/arena.md, ` +
            `"Outside and person entrants")`
          : `; ${arena.game} does not take outside or person entrants yet`)
      );
    if (!g.strategies.includes(e.strategy))
      return `entrant ${e.name}: no ${arena.game} strategy ${e.strategy} (try ${g.strategies.join(', ')})`;
  }
  return g;
}
