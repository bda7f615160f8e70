import { anonClient, useQueries } from '@db8/web/kit';
import { debateRating } from '../client/index.ts';
import { debateKeys } from './keys.ts';

// What a closed debate did to its debaters' Elo, read from the server's ratings (the SDK's
// `debateRating`, parsed with the server's schema). Ratings are public: no credential is sent.

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

/** What this room did to each identity's global rating. Ratings fold once the room closes. */
export function useEloChanges(
  roomId: string,
  identities: Record<string, string | null> | null,
): Record<string, EloChange> {
  const ids = identities
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
  const out: Record<string, EloChange> = {};
  ids.forEach((id, i) => {
    const read = reads[i];
    if (!read || read.isPending) return;
    const row = rowOf(read.data);
    out[id] = row
      ? { kind: 'rated', before: row.before, delta: row.delta, after: row.after }
      : { kind: 'none' };
  });
  return out;
}
