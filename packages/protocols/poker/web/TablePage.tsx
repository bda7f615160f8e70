import { errorText, Link, LiveBadge, useQuery, useQueryClient } from '@db8/web/kit';
import { useEffect, useMemo } from 'react';
import { FinalStandings } from './FinalStandings.tsx';
import { HandSummaries } from './HandSummaries.tsx';
import { pokerKeys } from './keys.ts';
import { useTableLive } from './live.ts';
import { PokerFelt } from './PokerFelt.tsx';
import { pokerApi } from './tables.ts';

// The observer's table (/tables/:id): live over the poker WebSocket with no credential, so the page
// can only ever receive what any observer may see.

export function TablePage(props: { tableId: string }) {
  const { tableId } = props;
  const { state, hands, status, error, skewMs } = useTableLive(tableId);
  // The title and who sits where (a 404 is not asked again); the felt comes from the socket.
  const read = useQuery({ queryKey: pokerKeys.table(tableId), queryFn: () => pokerApi.table(tableId) });
  const title = read.data ? (read.data.table.title ?? read.data.table.table_id) : null;
  const missing = read.error ? errorText(read.error) : null;
  const names = useMemo(
    () => new Map((read.data?.players ?? []).flatMap((p) => (p.name ? [[p.seat_id, p.name] as const] : []))),
    [read.data],
  );
  // Names are read again when an agent sits down or leaves, and when the table stops (an observer
  // sees who sat where once it has ended; an admin all along). No state yet: nothing to refresh.
  const queryClient = useQueryClient();
  const taken = state
    ? `${state.seats.flatMap((s) => (s.status === 'empty' ? [] : [s.seat_id])).join(',')}:${state.status === 'stopped'}`
    : null;
  useEffect(() => {
    if (taken !== null) void queryClient.invalidateQueries({ queryKey: pokerKeys.table(tableId) });
  }, [taken, tableId, queryClient]);
  if (missing && !state) {
    return (
      <section className="card narrow">
        <h1>Table not found</h1>
        <p>
          {missing}. <Link to="/tables">All tables</Link>
        </p>
      </section>
    );
  }
  const lastHand = hands.at(-1) ?? null;
  return (
    <div className="poker-page">
      <header className="card-head poker-head">
        <h1>{title ?? tableId}</h1>
        <LiveBadge status={status} closed={state?.status === 'stopped'} testId="table-live" />
        {state && (
          <span className="muted small">
            blinds {state.blinds.small}/{state.blinds.big}
            {state.blinds.ante > 0 ? ` · ante ${state.blinds.ante}` : ''} · {state.status}
          </span>
        )}
        <Link to={`/rooms/${encodeURIComponent(tableId)}/journal`} className="small">
          Journal
        </Link>
      </header>
      {error && <p className="error small">{error}</p>}
      {state ? (
        <PokerFelt state={state} lastHand={lastHand} skewMs={skewMs} names={names} />
      ) : (
        <p className="muted">Connecting to the table…</p>
      )}
      {state?.status === 'stopped' ? <FinalStandings tableId={tableId} names={names} /> : null}
      <HandSummaries hands={hands} />
    </div>
  );
}
