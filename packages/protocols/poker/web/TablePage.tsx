import { errorText, Link, LiveBadge } from '@db8/web/kit';
import { FinalStandings } from './FinalStandings.tsx';
import { HandSummaries } from './HandSummaries.tsx';
import { useTableLive } from './live.ts';
import { PokerFelt } from './PokerFelt.tsx';
import { useTableRead } from './table-read.ts';

// The observer's table (/tables/:id): live over the poker WebSocket with no credential, so the page
// can only ever receive what any observer may see.

export function TablePage(props: { tableId: string }) {
  const { tableId } = props;
  const { state, hands, status, error, skewMs } = useTableLive(tableId);
  // The title and who sits where; the felt comes from the socket.
  const { read, names } = useTableRead(tableId, state);
  const title = read.data ? (read.data.table.title ?? read.data.table.table_id) : null;
  const missing = read.error ? errorText(read.error) : null;
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
