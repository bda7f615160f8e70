import { type Entry, EntryRow, errorText, getSession, Link, useQuery, useRoomLive } from '@db8/web/kit';
import { useState } from 'react';
import { AdminOnly } from './AdminTables.tsx';
import { describePokerEntry } from './entry-words.ts';
import { HandSummaries } from './HandSummaries.tsx';
import { Kick } from './Kick.tsx';
import { pokerKeys } from './keys.ts';
import { useTableLive } from './live.ts';
import { PokerFelt } from './PokerFelt.tsx';
import { TopUp } from './TopUp.tsx';
import { useTableRead } from './table-read.ts';
import { type AdminEvent, pokerApi } from './tables.ts';

// Admin: one table — the felt, the live log feed (admin reads every entry), the recorded events a
// page at a time, downloads (JSONL, PHH), play-money top-ups and stop.

const PAGE = 50;

export function AdminTable(props: { tableId: string }) {
  return (
    <AdminOnly>
      <AdminTableInner tableId={props.tableId} />
    </AdminOnly>
  );
}

function AdminTableInner(props: { tableId: string }) {
  const { tableId } = props;
  const table = useTableLive(tableId);
  const feed = useRoomLive(tableId, getSession()?.token ?? null);
  const [from, setFrom] = useState(0);
  // A room-scoped read (pokerKeys.events): the live feed above refreshes it as the table's log grows.
  const eventsRead = useQuery({
    queryKey: pokerKeys.events(tableId, from),
    queryFn: async () => (await pokerApi.events(tableId, from, PAGE)).events,
  });
  const events: AdminEvent[] | null = eventsRead.data ?? null;
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? (eventsRead.error ? errorText(eventsRead.error) : null);
  const act = async (fn: () => Promise<unknown>) => {
    try {
      setError(null);
      await fn();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const recentFeed = feed.entries.slice(-40).reverse();
  const { read: tableRead, names } = useTableRead(tableId, table.state);
  const startingStack = tableRead.data?.table.starting_stack ?? null;
  return (
    <div className="poker-page">
      <header className="card-head poker-head">
        <h1>Table {tableId}</h1>
        <Link to="/admin/tables">All tables</Link>
        <Link to={`/tables/${encodeURIComponent(tableId)}`}>Observer view</Link>
        <button type="button" onClick={() => void act(() => pokerApi.download(tableId, 'jsonl'))}>
          Download JSONL
        </button>
        <button type="button" onClick={() => void act(() => pokerApi.download(tableId, 'phh'))}>
          Download PHH
        </button>
        {table.state && table.state.status !== 'stopped' && (
          <button
            type="button"
            className="ghost"
            onClick={() => confirm('Stop this table?') && void act(() => pokerApi.stop(tableId))}
          >
            Stop table
          </button>
        )}
      </header>
      {error && <p className="error small">{error}</p>}
      {table.state && (
        <PokerFelt
          state={table.state}
          lastHand={table.hands.at(-1) ?? null}
          skewMs={table.skewMs}
          names={names}
        />
      )}
      {table.state && table.state.status !== 'stopped' && (
        <TopUp tableId={tableId} state={table.state} startingStack={startingStack} />
      )}
      {table.state && table.state.status !== 'stopped' && <Kick tableId={tableId} state={table.state} />}
      <section className="card" aria-labelledby="feed-h">
        <h2 id="feed-h">
          Live feed <span className="badge badge-info">{feed.status}</span>
        </h2>
        <ol className="entries feed" data-testid="live-log">
          {recentFeed.map((e) => (
            <EntryRow key={e.seq} entry={e} protocol="poker" />
          ))}
        </ol>
      </section>
      <section className="card" aria-labelledby="events-h">
        <h2 id="events-h">
          Events {from}–{from + PAGE - 1}
          <button
            type="button"
            className="ghost"
            disabled={from === 0}
            onClick={() => setFrom(Math.max(0, from - PAGE))}
          >
            ← Earlier
          </button>
          <button
            type="button"
            className="ghost"
            disabled={(events?.length ?? 0) < PAGE}
            onClick={() => setFrom(from + PAGE)}
          >
            Later →
          </button>
          <button type="button" className="ghost" onClick={() => void eventsRead.refetch()}>
            Refresh
          </button>
        </h2>
        {events === null ? (
          <p className="muted">Loading…</p>
        ) : (
          <div className="table-wrap">
            <table className="admin-table small" data-testid="events">
              <thead>
                <tr>
                  <th>seq</th>
                  <th>what happened</th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.seq} data-seq={e.seq}>
                    <td className="num">{e.seq}</td>
                    <td>
                      <EventWords event={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <HandSummaries hands={table.hands} />
    </div>
  );
}

/** An event in words, with its entry as JSON one click away (the raw record stays readable). */
function EventWords(props: { event: AdminEvent }) {
  const words = describePokerEntry(props.event as unknown as Entry);
  return (
    <details>
      <summary>{words ?? <span className="muted">{String(props.event.kind ?? 'entry')}</span>}</summary>
      <code className="mono small">{JSON.stringify(props.event)}</code>
    </details>
  );
}
