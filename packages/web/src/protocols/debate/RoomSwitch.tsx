import { useEffect, useState } from 'react';
import { CouncilRoom } from '../council/CouncilRoom.tsx';
import { api } from '../../lib/api.ts';
import type { Room as RoomInfo } from '../../lib/types.ts';
import { Room } from '../../pages/Room.tsx';
import { TablePage } from '../poker/TablePage.tsx';
import { DebateRoom } from './DebateRoom.tsx';

// The room page by protocol: a debate gets its own UI, every other protocol the generic room.
// `?raw=1` shows any room generically (the live log and the view as JSON).

export function RoomSwitch(props: { roomId: string }) {
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
  if (room?.protocol === 'debate' && !raw) return <DebateRoom roomId={roomId} room={room} />;
  if (room?.protocol === 'council' && !raw) return <CouncilRoom roomId={roomId} room={room} />;
  if (room?.protocol === 'poker' && !raw) return <TablePage tableId={roomId} />;
  return <Room roomId={roomId} />;
}
