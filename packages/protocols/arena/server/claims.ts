import { type ModuleRuntime, RuntimeError } from '@db8/server/kit';
import { type Game, type Games, playsOutside } from '../cli/game.ts';
import { type ArenaConfig, ArenaConfigSchema, type ArenaState, type Match } from '../rules/index.ts';

/**
 * Outside and person entrants of server-run tournaments (docs/arena.md "Outside and person
 * entrants"): the organizer hands each such entrant an invitation; whoever claims it with their own
 * credential (an agent's key, a person's sign-in) plays that entrant. The claim lives in the
 * module's table `arena_entrants`, never in the tournament's public log or config, so who plays an
 * entrant is known only to that principal and the server — until a match room, closing, reveals its
 * holders as every room does. The runner seats the claimant in each of the entrant's match rooms as
 * it opens them; a claim made while a match is already open seats it there at once.
 */

/** The invite's seat field for an entrant (invites are the platform's, scoped to the tournament). */
export const ENTRANT_PREFIX = 'entrant:';

type Db = ModuleRuntime['store']['db'];

export async function claimant(db: Db, tournament: string, entrant: string): Promise<string | null> {
  const rows = await db.query<{ principal: string }>(
    'SELECT principal FROM arena_entrants WHERE tournament_id = $1 AND entrant = $2',
    [tournament, entrant],
  );
  return rows[0]?.principal ?? null;
}

/** Records the claim; returns who holds the entrant afterwards (another principal: it was taken). */
export async function claim(
  db: Db,
  c: { tournament: string; entrant: string; principal: string; now: number },
): Promise<string> {
  await db.query(
    `INSERT INTO arena_entrants (tournament_id, entrant, principal, claimed_at) VALUES ($1,$2,$3,$4)
     ON CONFLICT (tournament_id, entrant) DO NOTHING`,
    [c.tournament, c.entrant, c.principal, c.now],
  );
  return (await claimant(db, c.tournament, c.entrant)) ?? c.principal;
}

/** Who holds each claimed entrant of a tournament (for its organizer's view). */
export async function claimsIn(db: Db, tournament: string): Promise<Map<string, string>> {
  const rows = await db.query<{ entrant: string; principal: string }>(
    'SELECT entrant, principal FROM arena_entrants WHERE tournament_id = $1',
    [tournament],
  );
  return new Map(rows.map((r) => [r.entrant, r.principal]));
}

export async function claimsOf(
  db: Db,
  principal: string,
): Promise<{ tournament: string; entrant: string }[]> {
  const rows = await db.query<{ tournament_id: string; entrant: string }>(
    'SELECT tournament_id, entrant FROM arena_entrants WHERE principal = $1 ORDER BY claimed_at, entrant',
    [principal],
  );
  return rows.map((r) => ({ tournament: r.tournament_id, entrant: r.entrant }));
}

/** The room of a match's current attempt (the newest that exists), with whether it is open. */
export async function currentRoom(
  runtime: ModuleRuntime,
  tournament: string,
  match: string,
  roomId: (t: string, m: string, attempt: number) => string,
): Promise<{ id: string; open: boolean } | null> {
  let found: { id: string; open: boolean } | null = null;
  for (let attempt = 1; attempt <= 8; attempt++) {
    const id = roomId(tournament, match, attempt);
    const room = await runtime.getRoom(id).catch((err) => {
      if (err instanceof RuntimeError && err.code === 'ROOM_NOT_FOUND') return null;
      throw err;
    });
    if (!room) break;
    found = { id, open: room.status === 'open' };
  }
  return found;
}

/**
 * Seats every claimed outside/person entrant of the match in its room (a rejoin of a held seat is a
 * no-op). A seat already taken by someone else stays theirs: the room's own rules decide.
 */
export async function seatClaimants(
  runtime: ModuleRuntime,
  game: Game,
  arena: ArenaConfig,
  tournament: string,
  match: Match,
  roomId: string,
): Promise<void> {
  if (!game.seat) return;
  for (const [i, name] of match.entrants.entries()) {
    if (!playsOutside(arena, name)) continue;
    const principal = await claimant(runtime.store.db, tournament, name);
    if (principal === null) continue;
    await runtime.join(roomId, { seat: game.seat(i), principal }).catch((err) => {
      if (!(err instanceof RuntimeError)) throw err;
    });
  }
}

/** One match an entrant the principal claimed still has to play. */
export interface Pending {
  tournament: string;
  tournament_name: string;
  game: string;
  entrant: string;
  match: string;
  round: number;
  /** `open`: its room is open and the seat is the caller's; `scheduled`: its room is not open yet. */
  status: 'open' | 'scheduled';
  room_id: string | null;
  seat: string | null;
  opponents: string[];
  /** The game's private brief for this entrant (e.g. a sealed-bid bidder's value), or {}. */
  brief: Record<string, unknown>;
}

/** The principal's matches without a result, in the tournaments it holds entrants of. */
export async function pendingOf(
  runtime: ModuleRuntime,
  principal: string,
  games: Games,
  roomId: (t: string, m: string, attempt: number) => string,
): Promise<Pending[]> {
  const out: Pending[] = [];
  for (const c of await claimsOf(runtime.store.db, principal)) {
    const r = await runtime.protocolState(c.tournament).catch(() => null);
    if (!r || r.closed) continue;
    const s = r.state as ArenaState;
    const config = ArenaConfigSchema.parse(s.config);
    for (const m of s.matches) {
      const i = m.entrants.indexOf(c.entrant);
      if (i < 0 || s.results[m.id]) continue;
      const room = await currentRoom(runtime, c.tournament, m.id, roomId);
      const open = room?.open === true;
      out.push({
        tournament: c.tournament,
        tournament_name: config.name,
        game: config.game,
        entrant: c.entrant,
        match: m.id,
        round: m.round,
        status: open ? 'open' : 'scheduled',
        room_id: open ? room.id : null,
        seat: open ? (games[config.game]?.seat?.(i) ?? null) : null,
        opponents: m.entrants.filter((x) => x !== c.entrant),
        brief: games[config.game]?.brief?.(m, i, config) ?? {},
      });
    }
  }
  return out;
}
