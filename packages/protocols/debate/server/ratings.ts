import type { ModuleRuntime } from '@db8/server/kit';
import {
  foldRatings,
  matchFromResult,
  type RatingMatch,
  type Ratings,
  ResultsSchema,
} from '../rules/index.ts';
import type { IdentityInfo } from '../rules/ratings-wire.ts';

/**
 * Elo ratings across closed debate rooms (GET /v1/ratings). A closed room's result never changes,
 * so each room's match is read once and kept; the fold itself (cheap) is redone only after a
 * debate closes (`invalidate`, driven by the bus) — one cache per process, as every node can
 * compute the same tables from the shared store.
 */

type RoomLister = Pick<ModuleRuntime, 'listRooms' | 'entries'>;

/** A principal's name and scripted flag (null: no agent or person has this id). */
export type IdentityLookup = (id: string) => Promise<IdentityInfo | null>;

/** A closed debate the table leaves out, and why (shown on the leaderboard and the results). */
export interface Unrated {
  room_id: string;
  reason: string;
}

export interface RatingsSnapshot extends Ratings {
  matches: number;
  computedAt: number;
  unrated: Unrated[];
}

/** A closed room as the ratings read it once: its match (null: no result to rate), and why not. */
interface RoomMatch {
  match: RatingMatch | null;
  /** Why the room has no match (null when it has one). */
  reason: string | null;
  /** The room's creator asked to rate its scripted seats (config.rate_scripted). */
  rateScripted: boolean;
}

/**
 * Scripted agents (demos, tests) would flood the tables with fixed-script results, so by default a
 * debate rates only its other entrants; `{scripted: true}` folds everyone.
 */
export interface RatingsPair {
  rated: RatingsSnapshot;
  withScripted: RatingsSnapshot;
}

const PAGE = 200;

export class DebateRatings {
  /** room id → its rating match (null: closed without two bound identities, not rated). */
  private readonly matches = new Map<string, RoomMatch>();
  private snapshot: RatingsPair | null = null;
  private pending: Promise<RatingsPair> | null = null;
  /** A principal's name and flag are fixed at registration, so each is read once. */
  private readonly known = new Map<string, IdentityInfo | null>();
  private dirty = true;
  /** Bumped on every invalidation, so a fold that raced a close is not cached as fresh. */
  private generation = 0;

  constructor(
    private readonly runtime: RoomLister,
    private readonly clock: () => number = Date.now,
    private readonly lookup: IdentityLookup = async () => null,
  ) {}

  /** Name and scripted flag of each id the server knows (cached). */
  async identities(ids: readonly string[]): Promise<Record<string, IdentityInfo>> {
    const out: Record<string, IdentityInfo> = {};
    for (const id of ids) {
      if (!this.known.has(id)) this.known.set(id, await this.lookup(id));
      const info = this.known.get(id);
      if (info) out[id] = info;
    }
    return out;
  }

  /** The snapshot the leaderboard shows: without scripted entrants unless asked. */
  async get(opts: { scripted?: boolean } = {}): Promise<RatingsSnapshot> {
    const pair = await this.pair();
    return opts.scripted ? pair.withScripted : pair.rated;
  }

  /** A debate closed somewhere: the next read refolds. */
  invalidate(): void {
    this.dirty = true;
    this.generation++;
  }

  private async pair(): Promise<RatingsPair> {
    if (!this.dirty && this.snapshot) return this.snapshot;
    this.pending ??= this.compute().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async compute(): Promise<RatingsPair> {
    const gen = this.generation;
    const closed = await this.closedRooms();
    for (const r of closed) {
      if (!this.matches.has(r.id)) this.matches.set(r.id, await this.matchOf(r.id, r.seq));
    }
    const rooms = closed
      .map((r) => ({ id: r.id, m: this.matches.get(r.id)! }))
      // Ratings depend on order: fold by close time, then room id, so every node agrees.
      .sort(
        (a, b) => (a.m.match?.at ?? 0) - (b.m.match?.at ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    const list = rooms.flatMap((r) => (r.m.match ? [r.m.match] : []));
    const ids = [...new Set(list.flatMap((m) => m.entrants.map((e) => e.identity)))];
    const info = await this.identities(ids);
    const unrated: Unrated[] = [];
    const human: RatingMatch[] = [];
    for (const { id, m } of rooms) {
      if (!m.match) {
        unrated.push({ room_id: id, reason: m.reason ?? 'no result' });
        continue;
      }
      // Scripted seats count only where the room's creator asked for it.
      const entrants = m.rateScripted
        ? m.match.entrants
        : m.match.entrants.filter((e) => !info[e.identity]?.scripted);
      if (entrants.length >= 2) human.push({ ...m.match, entrants });
      else unrated.push({ room_id: id, reason: 'scripted seats, rating not requested' });
    }
    const at = this.clock();
    const snap: RatingsPair = {
      rated: { ...foldRatings(human), matches: human.length, computedAt: at, unrated },
      withScripted: {
        ...foldRatings(list),
        matches: list.length,
        computedAt: at,
        unrated: unrated.filter((u) => !u.reason.startsWith('scripted')),
      },
    };
    if (gen === this.generation) {
      this.snapshot = snap;
      this.dirty = false;
    }
    return snap;
  }

  /** Every closed debate room with its head seq (the close entry is the last one). */
  private async closedRooms(): Promise<Array<{ id: string; seq: number }>> {
    const rooms: Array<{ id: string; seq: number }> = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await this.runtime.listRooms({
        protocol: 'debate',
        status: 'closed',
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      for (const r of page) rooms.push({ id: r.id, seq: r.seq });
      const last = page.at(-1);
      if (page.length < PAGE || !last) return rooms;
      cursor = `${last.createdAt}:${last.id}`;
    }
  }

  /** The room's close entry carries the result with the unmasked identities; its genesis the config. */
  private async matchOf(roomId: string, headSeq: number): Promise<RoomMatch> {
    const [genesis] = await this.runtime.entries(roomId, { kind: 'observer' }, 0, 1);
    const config = (genesis?.payload as { config?: { rate_scripted?: unknown } } | undefined)?.config;
    const rateScripted = config?.rate_scripted === true;
    const [close] = await this.runtime.entries(roomId, { kind: 'observer' }, headSeq, 1);
    if (close?.kind !== 'close') return { match: null, reason: 'not closed', rateScripted };
    const payload = close.payload as { result?: unknown; ended?: unknown } | undefined;
    if (payload?.result === null || payload?.result === undefined) {
      return { match: null, reason: 'aborted: no results', rateScripted };
    }
    const result = ResultsSchema.safeParse(payload.result);
    if (!result.success) return { match: null, reason: 'no results', rateScripted };
    const match = matchFromResult(result.data, { id: roomId, at: close.ts });
    return match
      ? { match, reason: null, rateScripted }
      : { match: null, reason: 'fewer than two seats with a named holder', rateScripted };
  }
}
