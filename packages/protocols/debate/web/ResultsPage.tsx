import { Link, tokenFor, useCredentials, useRoomLive } from '@db8/web/kit';
import { readDebate } from './model.ts';
import { Results } from './Results.tsx';

// A debate's results on a page of their own (`/rooms/:id/results`), live until the room closes.

export function ResultsPage(props: { roomId: string }) {
  useCredentials();
  const live = useRoomLive(props.roomId, tokenFor(props.roomId));
  const debate = readDebate(live.state);
  const room = `/rooms/${encodeURIComponent(props.roomId)}`;
  return (
    <div className="debate">
      <p className="crumbs small">
        <Link to="/">Rooms</Link> / <Link to={room}>{props.roomId}</Link> / results
      </p>
      {debate ? <h1>{debate.view.config.topic}</h1> : null}
      {live.error ? (
        <p className="error" role="alert">
          {live.error}
        </p>
      ) : null}
      {!debate ? (
        <p className="muted">Loading…</p>
      ) : debate.view.results ? (
        <Results view={debate.view} roomId={props.roomId} />
      ) : (
        <section className="card">
          <p className="muted" data-testid="no-results">
            No results yet: the debate is in its {debate.view.phase.replace('_', ' ')} phase.{' '}
            <Link to={room}>Back to the room</Link>
          </p>
        </section>
      )}
    </div>
  );
}
