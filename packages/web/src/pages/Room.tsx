import { useEffect, useMemo, useRef } from 'react';
import { ActionForm } from '../components/ActionForm.tsx';
import { Badge, statusTone } from '../components/Badge.tsx';
import { Countdown } from '../components/Countdown.tsx';
import { EntryRow } from '../components/EntryRow.tsx';
import { JsonView } from '../components/JsonView.tsx';
import { LiveBadge } from '../components/LiveBadge.tsx';
import { HeldSeat, SeatList } from '../components/SeatList.tsx';
import { tokenFor } from '../lib/api.ts';
import { useRoomLive } from '../lib/live.ts';
import { errorText, useRoomInfo } from '../lib/query.ts';
import { revealIndex } from '../lib/reveals.ts';
import { Link } from '../lib/router.tsx';
import { useSeatActions } from '../lib/seat-actions.ts';
import { getSeat, useCredentials } from '../lib/session.ts';
import type { Room as RoomInfo } from '../lib/types.ts';
import { ModuleScope } from '../protocols/module.tsx';
import { moduleFor } from '../protocols/registry.ts';

// A generic room: live log over the WebSocket, the viewer's state as JSON, a countdown to the
// server's deadline, and (for a seat holder) the action form. Protocol-specific views come later.

function SeatPanel(props: { room: RoomInfo | null; closed: boolean; roomId: string; onJoined: () => void }) {
  const actions = useSeatActions(props.roomId, props.onJoined);
  const { held, invite, busy, error, join, leave } = actions;

  if (held) {
    return (
      <section className="card seat-panel" aria-label="your seat">
        <p>
          <HeldSeat held={held} />
        </p>
        <button type="button" className="ghost" onClick={leave}>
          Leave this browser's seat
        </button>
      </section>
    );
  }
  const seats = props.room?.seats ?? [];
  return (
    <section className="card seat-panel" aria-labelledby="seats-h">
      <h2 id="seats-h">Seats</h2>
      {invite ? (
        <div className="invite">
          <p>You have been invited to take a seat in this room.</p>
          <button type="button" className="primary" disabled={busy} onClick={() => void join()}>
            Accept invite
          </button>
        </div>
      ) : null}
      <SeatList
        seats={seats}
        actions={actions}
        closed={props.closed}
        joinLabel={(seat) => `Join as ${seat}`}
      />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

export function Room(props: { roomId: string }) {
  useCredentials();
  const { roomId } = props;
  const token = tokenFor(roomId);
  const live = useRoomLive(roomId, token);
  // Refreshed by the live feed as the log grows (seats, status): lib/live.ts.
  const info = useRoomInfo(roomId);
  const room = info.data ?? null;
  const roomError = info.error ? errorText(info.error) : null;
  const held = getSeat(roomId);
  const logRef = useRef<HTMLOListElement>(null);

  // Keep the newest entry in view as the log grows.
  useEffect(() => {
    const el = logRef.current;
    if (el && live.entries.length > 0) el.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [live.entries.length]);

  const state = live.state;
  const reveals = useMemo(() => revealIndex(live.entries), [live.entries]);
  const seatForActions = held && state?.viewer.kind === 'seat' ? state.viewer.seat : held?.seat;
  // A module may give seat holders a form of its own (its room view, if any, is not this page).
  const mod = moduleFor(state?.protocol ?? room?.protocol);

  return (
    <div className="room">
      <header className="room-head">
        <div>
          <p className="crumbs small">
            <Link to="/">Rooms</Link> / <span className="mono">{roomId}</span>
          </p>
          <h1 data-testid="room-title">{room?.title ?? mod?.roomTitle?.(state?.view) ?? roomId}</h1>
          <p className="meta">
            <code>{state?.protocol ?? room?.protocol ?? '…'}</code>{' '}
            <Badge tone={statusTone(state?.status ?? room?.status ?? '')} testId="room-status">
              {state?.status ?? room?.status ?? '…'}
            </Badge>{' '}
            <span className="muted">seq</span>{' '}
            <span className="mono" data-testid="room-seq">
              {state?.seq ?? room?.seq ?? '…'}
            </span>{' '}
            <LiveBadge status={live.status} closed={(state?.status ?? room?.status) === 'closed'} />{' '}
            <Link to={`/rooms/${encodeURIComponent(roomId)}/journal`} className="button ghost">
              Journal
            </Link>
          </p>
        </div>
        {/* A closed room has no clock left to show (it drew a bare dash and "no deadline"). */}
        {(state?.status ?? room?.status) === 'closed' ? null : (
          <Countdown
            deadlineUnix={state?.deadline_unix ?? null}
            deadlineMs={state?.deadline_ms ?? null}
            skewMs={live.skewMs}
          />
        )}
      </header>
      {roomError ? (
        <p className="error" role="alert">
          {roomError}
        </p>
      ) : null}
      {live.error ? (
        <p className="error" role="alert">
          {live.error}
        </p>
      ) : null}
      <div className="room-grid">
        <div className="col">
          <SeatPanel
            room={room}
            // The socket's state says closed first; the room's record follows on its next read.
            closed={(state?.status ?? room?.status) === 'closed'}
            roomId={roomId}
            onJoined={() => void info.refetch()}
          />
          {held && seatForActions && state && mod?.SeatActions ? (
            <ModuleScope module={mod}>
              <mod.SeatActions
                seat={seatForActions}
                legal={state.legal?.actions ?? []}
                closed={state.status === 'closed'}
                send={(action) => live.act(seatForActions, action, state.turn_token)}
              />
            </ModuleScope>
          ) : null}
          {held && seatForActions && state ? (
            <ActionForm
              seat={seatForActions}
              legal={state.legal?.actions ?? []}
              turnToken={state.turn_token}
              closed={state.status === 'closed'}
              send={(action) => live.act(seatForActions, action, state.turn_token)}
            />
          ) : null}
          {state && mod?.Summary ? (
            <ModuleScope module={mod}>
              <section className="card" aria-label="summary" data-testid="room-summary">
                <mod.Summary view={state.view} status={state.status} roomId={roomId} />
              </section>
            </ModuleScope>
          ) : null}
          <section className="card" aria-labelledby="state-h">
            <h2 id="state-h">
              State{' '}
              <span className="muted small">as {state ? (state.viewer.seat ?? state.viewer.kind) : '…'}</span>
            </h2>
            {state ? <JsonView value={state.view} testId="state-json" /> : <p className="muted">Loading…</p>}
          </section>
        </div>
        <section className="card log" aria-labelledby="log-h">
          <h2 id="log-h">
            Live log <span className="muted small">{live.entries.length} entries</span>
          </h2>
          <ol className="entries" ref={logRef} aria-live="polite" data-testid="live-log">
            {live.entries.map((e) => (
              <EntryRow key={e.seq} entry={e} revealed={reveals.get(e.seq)} protocol={mod?.protocol} />
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}
