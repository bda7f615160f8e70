import { getSession, Link, useApiQuery, useCredentials, useParams } from '@db8/web/kit';
import { z } from 'zod';
import { type ArenaView, isOutsideKind } from '../rules/index.ts';

// A tournament's outside and person entrants on its page: which open match waits for whom (by
// entrant name: who claimed an entrant is shown only to its organizer, Invites.tsx), and, for a
// signed-in viewer who claimed one, their own matches here with a link to each open match room
// (GET /v1/arena/matches answers only the caller's).

const Mine = z.object({
  matches: z.array(
    z.object({
      tournament: z.string(),
      entrant: z.string(),
      match: z.string(),
      round: z.number(),
      status: z.enum(['open', 'scheduled']),
      room_id: z.string().nullable(),
      opponents: z.array(z.string()),
    }),
  ),
});

export const MY_MATCHES = ['arena', 'my-matches'] as const;

/** The signed-in viewer's pending matches in this tournament (none when signed out). */
export function useMyMatches(tournament: string | undefined) {
  useCredentials();
  const signedIn = getSession() !== null;
  // No feed tells this page that a match room opened: the list polls.
  const q = useApiQuery([...MY_MATCHES], '/v1/arena/matches', Mine, {
    retry: false,
    refetchInterval: 5000,
    enabled: signedIn,
  });
  return signedIn ? (q.data?.matches.filter((m) => m.tournament === tournament) ?? []) : [];
}

/** A link to the viewer's own open room of this match, when they claimed one of its entrants. */
function YourRoom({ match }: { match: string }) {
  const { id } = useParams({ strict: false }) as { id?: string };
  const room = useMyMatches(id).find((m) => m.match === match)?.room_id;
  if (!room) return null;
  return (
    <>
      {' '}
      — <Link to={`/rooms/${encodeURIComponent(room)}`}>your match room</Link>
    </>
  );
}

/** "Your matches": the viewer's pending matches in this tournament, each open one linked to its room. */
export function YourMatches() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const mine = useMyMatches(id);
  if (mine.length === 0) return null;
  return (
    <section aria-labelledby="arena-mine-h" data-testid="arena-my-matches">
      <h3 id="arena-mine-h">Your matches</h3>
      <ul>
        {mine.map((m) => (
          <li key={`${m.entrant}/${m.match}`}>
            {m.match} (round {m.round}): {m.entrant} vs {m.opponents.join(' and ')} —{' '}
            {m.room_id ? (
              <Link to={`/rooms/${encodeURIComponent(m.room_id)}`}>your match room</Link>
            ) : (
              <span className="muted">its room is not open yet</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "waiting for …" for a match without a result: its outside and person entrants, by name. */
export function WaitsFor({
  view,
  match,
  entrants,
}: {
  view: Partial<ArenaView>;
  match: string;
  entrants: string[];
}) {
  const outside = entrants.filter((n) => {
    const kind = view.entrants?.find((e) => e.name === n)?.kind;
    return isOutsideKind(kind);
  });
  if (outside.length === 0) return <>— playing</>;
  return (
    <>
      — waiting for {outside.join(' and ')}
      <YourRoom match={match} />
    </>
  );
}
