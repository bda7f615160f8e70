import {
  Db8Client,
  Db8Error,
  debateRating,
  debateRatings,
  type RatingHistoryResponse,
  type RatingsResponse,
} from '@db8/sdk';
import { useEffect, useState } from 'react';

// The server's Elo tables (GET /v1/ratings, GET /v1/ratings/:identity) through the SDK, which
// parses them with the server's own zod schemas. Ratings are computed by the server from closed
// debates; the web never folds them.

export type { RatingHistoryResponse, RatingsResponse };

// Ratings are public: no credential is sent.
const anon = () => new Db8Client({ baseUrl: location.origin });

export const fetchRatings = (tag?: string): Promise<RatingsResponse> =>
  debateRatings(anon(), tag ? { tag } : {});

/** One identity's history, or null when it has no rated debate (404). */
export async function fetchRatingHistory(identity: string): Promise<RatingHistoryResponse | null> {
  try {
    return await debateRating(anon(), identity);
  } catch (e) {
    if (e instanceof Db8Error && e.status === 404) return null;
    throw e;
  }
}

export type EloChange = { kind: 'rated'; before: number; delta: number; after: number } | { kind: 'none' };

/** What this room did to each identity's global rating. Ratings fold once the room closes. */
export function useEloChanges(
  roomId: string,
  identities: Record<string, string | null> | null,
): Record<string, EloChange> {
  const [out, setOut] = useState<Record<string, EloChange>>({});
  const names = identities
    ? [...new Set(Object.values(identities).filter((x): x is string => !!x))].sort().join('\n')
    : '';
  useEffect(() => {
    if (!names) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (attempt: number) => {
      const next: Record<string, EloChange> = {};
      let missing = false;
      for (const id of names.split('\n')) {
        const h = await fetchRatingHistory(id).catch(() => null);
        const row = h?.history.find((r) => r.match === roomId && r.scope === 'global');
        if (row) next[id] = { kind: 'rated', before: row.before, delta: row.delta, after: row.after };
        else {
          next[id] = { kind: 'none' };
          missing = true;
        }
      }
      if (stop) return;
      setOut(next);
      // The server refolds when it sees the close; ask again a few times if it was not there yet.
      if (missing && attempt < 5) timer = setTimeout(() => void load(attempt + 1), 1000 * (attempt + 1));
    };
    void load(0);
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [roomId, names]);
  return out;
}
