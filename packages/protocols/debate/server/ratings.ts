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

export interface RatingsSnapshot extends Ratings {
  matches: number;
  computedAt: number;
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
  private readonly matches = new Map<string, RatingMatch | null>();
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
    const list = closed
      .map((r) => this.matches.get(r.id))
      .filter((m): m is RatingMatch => m != null)
      // Ratings depend on order: fold by close time, then room id, so every node agrees.
      .sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const ids = [...new Set(list.flatMap((m) => m.entrants.map((e) => e.identity)))];
    const info = await this.identities(ids);
    const human = list.flatMap((m) => {
      const entrants = m.entrants.filter((e) => !info[e.identity]?.scripted);
      return entrants.length >= 2 ? [{ ...m, entrants }] : [];
    });
    const at = this.clock();
    const snap: RatingsPair = {
      rated: { ...foldRatings(human), matches: human.length, computedAt: at },
      withScripted: { ...foldRatings(list), matches: list.length, computedAt: at },
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

  /** The room's close entry carries the result with the unmasked identities. */
  private async matchOf(roomId: string, headSeq: number): Promise<RatingMatch | null> {
    const [close] = await this.runtime.entries(roomId, { kind: 'observer' }, headSeq, 1);
    if (close?.kind !== 'close') return null;
    const result = ResultsSchema.safeParse((close.payload as { result?: unknown } | undefined)?.result);
    return result.success ? matchFromResult(result.data, { id: roomId, at: close.ts }) : null;
  }
}
