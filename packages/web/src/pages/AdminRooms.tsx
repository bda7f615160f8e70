import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Badge, statusTone } from '../components/Badge.tsx';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { signInHref } from '../lib/return-path.ts';
import { Link } from '../lib/router.tsx';
import { getSession, useCredentials } from '../lib/session.ts';
import type { AdminRoom } from '../lib/types.ts';
import { ago, formatWhen } from '../lib/when.ts';

// The room monitor (Colyseus' monitor is the model): every room of every protocol with who holds its
// seats, its age and last activity, a link into its journal's inspector, and a button that ends it
// (the server writes a close entry recording who and why). Admin-only, as its API is.

type Filter = 'open' | 'closed' | 'all';

function When(props: { ms: number; now: number }) {
  return (
    <time dateTime={new Date(props.ms).toISOString()} title={formatWhen(props.ms)}>
      {ago(props.ms, props.now)}
    </time>
  );
}

function Seats(props: { room: AdminRoom }) {
  const seats = props.room.seats;
  if (seats.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="monitor-seats">
      {seats.map((s) => (
        <li key={s.seat}>
          <span className="mono">{s.seat}</span> <span className="muted small">{s.role}</span>{' '}
          {s.holder ? (
            <span className="mono small holder" title={s.holder}>
              {s.holder}
            </span>
          ) : (
            <Badge tone={s.driven ? 'info' : 'muted'}>{s.driven ? 'driven' : 'free'}</Badge>
          )}
          {s.holder && s.driven ? <Badge tone="info">driven</Badge> : null}
        </li>
      ))}
    </ul>
  );
}

/** The End button, then an inline confirmation with an optional reason. */
function EndRoom(props: { room: AdminRoom }) {
  const { room } = props;
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const queryClient = useQueryClient();
  // Ending a room changes the monitor, the lobby and the room's own reads.
  const end = useMutation({
    mutationFn: () => api.endRoom(room.room_id, reason.trim() || undefined),
    onSuccess: () => {
      setAsking(false);
      for (const queryKey of [webKeys.adminRooms(), webKeys.rooms(), webKeys.room(room.room_id)]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
  const busy = end.isPending;
  const error = end.error ? errorText(end.error) : null;
  if (!room.endable) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    end.mutate();
  };
  if (!asking) {
    return (
      <button type="button" className="chip danger" onClick={() => setAsking(true)}>
        End
      </button>
    );
  }
  return (
    <form className="end-room" onSubmit={submit} aria-label={`End room ${room.room_id}`}>
      <input
        aria-label="reason (optional)"
        placeholder="reason (optional)"
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" className="danger" disabled={busy}>
        {busy ? 'Ending…' : 'End now'}
      </button>
      <button type="button" className="ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error ? (
        <p className="error small" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export function AdminRooms() {
  useCredentials();
  const admin = getSession()?.role === 'admin';
  const [filter, setFilter] = useState<Filter>('open');
  // Read on demand (Refresh, the filter, an End), as before: the monitor has no feed of its own.
  const read = useQuery({
    queryKey: webKeys.adminRooms(filter),
    queryFn: () => api.adminRooms(filter),
    enabled: admin,
  });
  const data = read.data ?? null;
  const error = read.error ? errorText(read.error) : null;
  const load = () => read.refetch();

  if (!admin) {
    return (
      <section className="card narrow">
        <h1>Room monitor</h1>
        <p>
          Admins only: sign in with the one-time link the server printed on start, or{' '}
          <Link to={signInHref('/admin/rooms')}>sign in</Link> with an account whose email the server lists as
          an admin's (<code>ADMIN_EMAILS</code>).
        </p>
      </section>
    );
  }

  return (
    <section className="card monitor" aria-labelledby="monitor-h">
      <header className="card-head">
        <h1 id="monitor-h">Room monitor</h1>
        <div className="row">
          <label htmlFor="monitor-filter" className="small muted">
            show
          </label>
          <select id="monitor-filter" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="open">live rooms</option>
            <option value="closed">closed rooms</option>
            <option value="all">all rooms</option>
          </select>
          <button type="button" className="ghost" onClick={() => void load()}>
            Refresh
          </button>
        </div>
      </header>
      {error ? (
        <p className="error" role="alert">
          Could not load rooms: {error}
        </p>
      ) : null}
      {data === null ? (
        <p className="muted">Loading…</p>
      ) : data.rooms.length === 0 ? (
        <p className="muted" data-testid="monitor-empty">
          No {filter === 'all' ? '' : filter === 'open' ? 'live ' : 'closed '}rooms.
        </p>
      ) : (
        <table className="monitor-rooms" data-testid="monitor-rooms">
          <thead>
            <tr>
              <th scope="col">Room</th>
              <th scope="col">Protocol</th>
              <th scope="col">Seats</th>
              <th scope="col">Age</th>
              <th scope="col">Last activity</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.rooms.map((r) => {
              const id = encodeURIComponent(r.room_id);
              return (
                <tr key={r.room_id} data-room={r.room_id}>
                  <td data-label="Room">
                    <Link to={`/rooms/${id}`}>{r.title ?? r.room_id}</Link>{' '}
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    <div className="mono small muted">
                      {r.room_id} · seq {r.seq}
                    </div>
                  </td>
                  <td data-label="Protocol">
                    <code>{r.protocol}</code>
                  </td>
                  <td data-label="Seats">
                    <Seats room={r} />
                  </td>
                  <td data-label="Age">
                    <When ms={r.created_at} now={data.now} />
                  </td>
                  <td data-label="Last activity">
                    <When ms={r.last_activity_at} now={data.now} />
                  </td>
                  <td data-label="" className="monitor-actions">
                    <Link to={`/rooms/${id}/journal`} search={{ inspect: '' }} className="button ghost">
                      Inspect
                    </Link>{' '}
                    <EndRoom room={r} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
