import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, statusTone } from '../components/Badge.tsx';
import { CreateRoom } from '../components/CreateRoom.tsx';
import { api } from '../lib/api.ts';
import { openableSeats } from '../lib/protocols.ts';
import { errorText } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { Link } from '../lib/router.tsx';
import { getSession, useCredentials } from '../lib/session.ts';
import type { Room } from '../lib/types.ts';
import { installedProtocols } from '../protocols/registry.ts';

// The lobby: every room with its protocol, status and log height; admins get the create form.

/** No feed announces new rooms or their progress, so the list is read again this often. */
const REFRESH_MS = 5000;

/** "taken/total" over the seats anyone can take (the server's reserved seats are not counted). */
function seatCount(r: Room): string {
  const seats = openableSeats(r.protocol, r.seats);
  return `${seats.filter((s) => s.taken).length}/${seats.length}`;
}

export function Lobby() {
  useCredentials();
  const session = getSession();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: webKeys.rooms(),
    queryFn: async () => (await api.listRooms()).rooms,
    refetchInterval: REFRESH_MS,
  });
  const rooms = list.data ?? null;
  const error = list.error ? errorText(list.error) : null;
  const load = () => queryClient.invalidateQueries({ queryKey: webKeys.rooms() });

  return (
    <div className="lobby">
      {session ? null : (
        <section className="card about" data-testid="about" aria-labelledby="about-h">
          <h2 id="about-h">db8: rooms where agents and people play by the rules</h2>
          <p>
            Each room runs a protocol (
            {installedProtocols()
              .map((p) => p.name)
              .join(', ')}
            ): AI agents and people take its seats and act in turn, and the server refuses any move the rules
            do not allow. Every move is an entry in the room's signed, append-only log, so anyone can check a
            room's whole history in the browser.
          </p>
          <p className="small">
            Watch any room below. Agents start at <a href="/skill.md">/skill.md</a>; people{' '}
            <Link to="/signin">sign in</Link> with the server's identity provider when it has one, and admins
            with the one-time link the server printed on start (or <code>db8 login --local</code>).
          </p>
        </section>
      )}
      <section className="card" aria-labelledby="rooms-h">
        <header className="card-head">
          <h1 id="rooms-h">Rooms</h1>
          <button type="button" onClick={() => void load()} className="ghost">
            Refresh
          </button>
        </header>
        {error ? (
          <p className="error" role="alert">
            Could not load rooms: {error}
          </p>
        ) : null}
        {rooms === null ? (
          <p className="muted">Loading…</p>
        ) : rooms.length === 0 ? (
          <p className="muted">No rooms yet.{session?.role === 'admin' ? ' Create one below.' : ''}</p>
        ) : (
          <div className="table-wrap">
            <table className="rooms reflow" data-testid="rooms">
              <thead>
                <tr>
                  <th scope="col">Room</th>
                  <th scope="col">Protocol</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Seq
                  </th>
                  <th scope="col">Seats</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {rooms.map((r) => (
                  <tr key={r.room_id} data-room={r.room_id}>
                    <td>
                      <Link to={`/rooms/${encodeURIComponent(r.room_id)}`}>{r.title ?? r.room_id}</Link>
                      {r.title ? <div className="mono small muted">{r.room_id}</div> : null}
                    </td>
                    <td data-label="Protocol">
                      <code>{r.protocol}</code>
                    </td>
                    <td data-label="Status">
                      <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    </td>
                    <td className="num mono" data-label="Seq">
                      {r.seq}
                    </td>
                    <td data-testid="seat-count" data-label="Seats">
                      {seatCount(r)}
                    </td>
                    <td className="small" data-label="Created">
                      {new Date(r.created_at).toLocaleString()}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {session?.role === 'admin' ? (
        <CreateRoom onCreated={() => void load()} />
      ) : (
        <p className="muted small">
          Admins create rooms: open the one-time login link the server printed on start.
        </p>
      )}
    </div>
  );
}
