import type { Room } from '@db8/web/kit';
import {
  Badge,
  Countdown,
  Link,
  LiveBadge,
  statusTone,
  tokenFor,
  useCredentials,
  useRoomLive,
} from '@db8/web/kit';
import { CouncilGrid } from './Grid.tsx';
import { readCouncil } from './model.ts';
import { PacketView } from './Packet.tsx';
import { Stepper } from './Stepper.tsx';

// A council room: the question, the eight-state stepper, the roles × stages grid filling live over
// the WebSocket (every state push re-reads the view), and the Final Packet once it exists. Seats
// act through their drivers or the generic room (`?raw=1`).

export function CouncilRoom(props: { roomId: string; room: Room | null }) {
  useCredentials();
  const { roomId, room } = props;
  const live = useRoomLive(roomId, tokenFor(roomId));
  const read = readCouncil(live.state?.view);
  const view = read?.view ?? null;
  return (
    <div className="council">
      <header className="room-head">
        <div>
          <p className="crumbs small">
            <Link to="/">Rooms</Link> / <span className="mono">{roomId}</span>
          </p>
          <h1>{room?.title ?? 'Council'}</h1>
          <p className="meta">
            <code>council</code>{' '}
            <Badge tone={statusTone(view?.status ?? room?.status ?? '')} testId="council-status">
              {view?.status ?? room?.status ?? '…'}
            </Badge>{' '}
            <LiveBadge
              status={live.status}
              closed={room?.status === 'closed' || live.state?.status === 'closed'}
            />{' '}
            <Link to={`/rooms/${encodeURIComponent(roomId)}/journal`} className="button ghost small">
              Journal
            </Link>{' '}
            <Link
              to={`/rooms/${encodeURIComponent(roomId)}`}
              search={{ raw: '1' }}
              className="button ghost small"
            >
              Raw log
            </Link>
          </p>
        </div>
        {view?.status === 'running' ? (
          <Countdown
            deadlineUnix={live.state?.deadline_unix ?? null}
            deadlineMs={live.state?.deadline_ms ?? null}
            skewMs={live.skewMs}
          />
        ) : null}
      </header>
      {live.error ? (
        <p className="error" role="alert">
          {live.error}
        </p>
      ) : null}
      {read?.problem ? (
        <p className="error" role="alert">
          {read.problem}
        </p>
      ) : null}
      {view ? (
        <>
          <section className="card council-question" aria-label="question">
            <p className="q" data-testid="council-question">
              {view.config.question}
            </p>
            {view.config.context ? <p className="muted small">{view.config.context}</p> : null}
          </section>
          <Stepper view={view} />
          <CouncilGrid view={view} />
          {view.packet ? (
            <PacketView roomId={roomId} packet={view.packet} sha256={view.packetSha256} />
          ) : null}
        </>
      ) : read ? null : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}
