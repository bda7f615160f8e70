import { Link, useApiQuery, useParams } from '@db8/web/kit';
import { z } from 'zod';
import { type ArenaView, isOutsideKind } from '../rules/index.ts';

// A tournament's outside and person entrants on its page: which open match waits for whom (by
// entrant name: who claimed an entrant is never shown), and, for a signed-in viewer who claimed one,
// a link to their own open match room (GET /v1/arena/matches answers only the caller's).

const Mine = z.object({
  matches: z.array(z.object({ tournament: z.string(), match: z.string(), room_id: z.string().nullable() })),
});

/** A link to the viewer's own open room of this match, when they claimed one of its entrants. */
function YourRoom({ match }: { match: string }) {
  const { id } = useParams({ strict: false }) as { id?: string };
  const q = useApiQuery(['arena', 'my-matches'], '/v1/arena/matches', Mine, {
    retry: false,
    refetchInterval: 5000,
  });
  const room = q.data?.matches.find((m) => m.tournament === id && m.match === match)?.room_id;
  if (!room) return null;
  return (
    <>
      {' '}
      — <Link to={`/rooms/${encodeURIComponent(room)}`}>your match room</Link>
    </>
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
