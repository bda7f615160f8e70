import { anonClient } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { debateRating } from '../client/index.ts';

// What a closed debate did to its debaters' Elo, read from the server's ratings (the SDK's
// `debateRating`, parsed with the server's schema). Ratings are public: no credential is sent.

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
        // No history yet (404) reads as not rated.
        const h = await debateRating(anonClient(), id).catch(() => null);
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
