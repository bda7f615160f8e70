import { anonClient } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { debateRating, debateRatings } from '../client/index.ts';

// What a closed debate did to its debaters' Elo, read from the server's ratings (the SDK's
// `debateRating`, parsed with the server's schema). Ratings are public: no credential is sent.
// The leaderboard says first whether the room is rated (and why not): a room that is not is never
// asked about per identity, and a 404 (no history) is an answer, not something to retry.

export type EloChange = { kind: 'rated'; before: number; delta: number; after: number } | { kind: 'none' };

export interface EloChanges {
  changes: Record<string, EloChange>;
  /** Why the room is not rated (e.g. "scripted seats, rating not requested"), or null. */
  unrated: string | null;
}

/** What this room did to each identity's global rating. Ratings fold once the room closes. */
export function useEloChanges(roomId: string, identities: Record<string, string | null> | null): EloChanges {
  const [out, setOut] = useState<EloChanges>({ changes: {}, unrated: null });
  const closed = identities !== null;
  const names = identities
    ? [...new Set(Object.values(identities).filter((x): x is string => !!x))].sort().join('\n')
    : '';
  useEffect(() => {
    if (!closed) return;
    let stop = false;
    const load = async () => {
      const table = await debateRatings(anonClient(), { limit: 1 }).catch(() => null);
      const unrated = table?.unrated.find((u) => u.room_id === roomId)?.reason ?? null;
      const changes: Record<string, EloChange> = {};
      if (unrated === null) {
        for (const id of names ? names.split('\n') : []) {
          const h = await debateRating(anonClient(), id).catch(() => null);
          const row = h?.history.find((r) => r.match === roomId && r.scope === 'global');
          changes[id] = row
            ? { kind: 'rated', before: row.before, delta: row.delta, after: row.after }
            : { kind: 'none' };
        }
      }
      if (!stop) setOut({ changes, unrated: names || unrated ? unrated : 'no seat has a named holder' });
    };
    void load();
    return () => {
      stop = true;
    };
  }, [roomId, names, closed]);
  return out;
}
