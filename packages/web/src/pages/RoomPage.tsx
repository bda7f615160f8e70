import { ApiError } from '../lib/api.ts';
import { useRoomInfo } from '../lib/query.ts';
import { Link, useSearchParams } from '../lib/router.tsx';
import { ModuleScope } from '../protocols/module.tsx';
import { moduleFor } from '../protocols/registry.ts';
import { Room } from './Room.tsx';

// The room page: the room's protocol module draws it when the module has a room view, otherwise the
// generic room does. `?raw=1` shows any room generically (the live log and the view as JSON).
// A room the server does not know gets a plain "not found", never the live
// room's shell, which would open a socket to nothing and wait for ever.

export function RoomPage(props: { roomId: string }) {
  const { roomId } = props;
  const raw = 'raw' in useSearchParams();
  // The same read the room's pages use (webKeys.roomInfo): a 404 is asked once (lib/query.ts).
  const info = useRoomInfo(roomId);
  if (info.isPending) return <p className="muted">Loading…</p>;
  const missing = info.error instanceof ApiError && info.error.status === 404 ? info.error.message : null;
  if (missing !== null) {
    return (
      <section className="card narrow" data-testid="room-not-found">
        <h1>Room not found</h1>
        <p>
          {missing}. <Link to="/">All rooms</Link>
        </p>
      </section>
    );
  }
  // Other errors (forbidden, offline): the generic page shows them itself.
  const room = info.data ?? null;
  const mod = room && !raw ? moduleFor(room.protocol) : undefined;
  if (room && mod?.RoomView) {
    return (
      <ModuleScope module={mod}>
        <mod.RoomView roomId={roomId} room={room} />
      </ModuleScope>
    );
  }
  return <Room roomId={roomId} />;
}
