import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import type { Room as RoomInfo } from '../lib/types.ts';
import { ModuleScope } from '../protocols/module.tsx';
import { moduleFor } from '../protocols/registry.ts';
import { Room } from './Room.tsx';

// The room page: the room's protocol module draws it when the module has a room view, otherwise the
// generic room does. `?raw=1` shows any room generically (the live log and the view as JSON).

export function RoomPage(props: { roomId: string }) {
  const { roomId } = props;
  const [room, setRoom] = useState<RoomInfo | null | undefined>(undefined);
  useEffect(() => {
    let stop = false;
    api
      .getRoom(roomId)
      .then((r) => !stop && setRoom(r))
      // The generic page shows the error (not found, forbidden) itself.
      .catch(() => !stop && setRoom(null));
    return () => {
      stop = true;
    };
  }, [roomId]);
  if (room === undefined) return <p className="muted">Loading…</p>;
  const raw = new URLSearchParams(location.search).has('raw');
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
