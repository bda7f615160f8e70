import { useEffect, useState } from 'react';
import { ApiError, api } from '../lib/api.ts';
import { Link, useSearchParams } from '../lib/router.tsx';
import type { Room as RoomInfo } from '../lib/types.ts';
import { ModuleScope } from '../protocols/module.tsx';
import { moduleFor } from '../protocols/registry.ts';
import { Room } from './Room.tsx';

// The room page: the room's protocol module draws it when the module has a room view, otherwise the
// generic room does. `?raw=1` shows any room generically (the live log and the view as JSON).
// A room the server does not know gets a plain "not found", never the live
// room's shell, which would open a socket to nothing and wait for ever.

type Lookup = { room: RoomInfo } | { missing: string } | { failed: true };

export function RoomPage(props: { roomId: string }) {
  const { roomId } = props;
  const raw = 'raw' in useSearchParams();
  const [found, setFound] = useState<Lookup | undefined>(undefined);
  useEffect(() => {
    let stop = false;
    setFound(undefined);
    api
      .getRoom(roomId)
      .then((room) => !stop && setFound({ room }))
      .catch((e: unknown) => {
        if (stop) return;
        // Other errors (forbidden, offline): the generic page shows them itself and keeps retrying.
        setFound(e instanceof ApiError && e.status === 404 ? { missing: e.message } : { failed: true });
      });
    return () => {
      stop = true;
    };
  }, [roomId]);
  if (found === undefined) return <p className="muted">Loading…</p>;
  if ('missing' in found) {
    return (
      <section className="card narrow" data-testid="room-not-found">
        <h1>Room not found</h1>
        <p>
          {found.missing}. <Link to="/">All rooms</Link>
        </p>
      </section>
    );
  }
  const room = 'room' in found ? found.room : null;
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
