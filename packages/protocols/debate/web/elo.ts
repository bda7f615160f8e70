import { anonClient, useQueries, useQuery } from '@db8/web/kit';
import { debateRating, debateRatings } from '../client/index.ts';
import { debateKeys } from './keys.ts';

// What a closed debate did to its debaters' Elo, read from the server's ratings (the SDK's
// `debateRating`, parsed with the server's schema). Ratings are public: no credential is sent.
// The leaderboard says first whether the room is rated (and why not): a room that is not is never
// asked about per identity, and a 404 (no history) is an answer, not something to retry.

export type EloChange = { kind: 'rated'; before: number; delta: number; after: number } | { kind: 'none' };

type History = Awaited<ReturnType<typeof debateRating>>;

/** How many times a history without this room is read before it counts as not rated. */
const READS = 6;

/** No history at all (404) is an answer, read once: the identity is not rated. */
async function historyOrNull(identity: string): Promise<History | null> {
  try {
    return await debateRating(anonClient(), identity);
  } catch (e) {
    if ((e as { status?: number }).status === 404) return null;
    throw e;
  }
}

export interface EloChanges {
  changes: Record<string, EloChange>;
  /** Why the room is not rated (e.g. "scripted seats, rating not requested"), or null. */
  unrated: string | null;
}

/** What this room did to each identity's global rating. Ratings fold once the room closes. */
export function useEloChanges(roomId: string, identities: Record<string, string | null> | null): EloChanges {
  // Whether the room is rated at all: the leaderboard lists the closed debates it did not rate, and
  // why. Read once the room has closed; an unrated room's identities are not asked for at all.
  const table = useQuery({
    queryKey: debateKeys.unrated(),
    queryFn: () => debateRatings(anonClient(), { limit: 1 }),
    enabled: identities !== null,
  });
  const unratedWhy = table.data?.unrated.find((u) => u.room_id === roomId)?.reason ?? null;
  const ids =
    identities && table.data && unratedWhy === null
      ? [...new Set(Object.values(identities).filter((x): x is string => !!x))].sort()
      : [];
  const rowOf = (h: History | null | undefined) =>
    h?.history.find((r) => r.match === roomId && r.scope === 'global');
  const reads = useQueries({
    queries: ids.map((id) => ({
      queryKey: debateKeys.rating(id, false),
      queryFn: () => historyOrNull(id),
      // Ratings have no feed. The server refolds them when the close reaches it; a history read just
      // before lacks this room, so it is read again, a few times, a second further apart each time.
      refetchInterval: (q: { state: { data: History | null | undefined; dataUpdateCount: number } }) => {
        const { data, dataUpdateCount } = q.state;
        return data && !rowOf(data) && dataUpdateCount < READS ? 1000 * dataUpdateCount : false;
      },
    })),
  });
  const changes: Record<string, EloChange> = {};
  ids.forEach((id, i) => {
    const read = reads[i];
    if (!read || read.isPending) return;
    const row = rowOf(read.data);
    changes[id] = row
      ? { kind: 'rated', before: row.before, delta: row.delta, after: row.after }
      : { kind: 'none' };
  });
  const unrated = unratedWhy ?? (table.data && ids.length === 0 ? 'no seat has a named holder' : null);
  return { changes, unrated };
}
