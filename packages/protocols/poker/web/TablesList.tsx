import { errorText, Link, useQuery } from '@db8/web/kit';
import type { TableSummary } from '../rules/index.ts';
import { pokerKeys } from './keys.ts';
import { pokerApi } from './tables.ts';

// Every poker table (public list), each linking to its observer view.

export function TableRows(props: {
  tables: readonly TableSummary[];
  admin?: boolean;
  actions?: (t: TableSummary) => React.ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="admin-table reflow">
        <thead>
          <tr>
            <th>Table</th>
            <th>Status</th>
            <th>Seats</th>
            <th>Blinds</th>
            <th>Hands</th>
            {props.actions && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {props.tables.map((t) => (
            <tr key={t.table_id} data-table={t.table_id}>
              <td>
                <Link
                  to={
                    props.admin
                      ? `/admin/tables/${encodeURIComponent(t.table_id)}`
                      : `/tables/${encodeURIComponent(t.table_id)}`
                  }
                >
                  {t.title ?? t.table_id}
                </Link>
              </td>
              <td data-testid="table-status" data-label="Status">
                {t.status}
              </td>
              <td className="num" data-label="Seats">
                {t.seats_filled}/{t.seats_total}
              </td>
              <td className="num" data-label="Blinds">
                {t.small_blind}/{t.big_blind}
                {t.ante > 0 ? ` +${t.ante}` : ''}
              </td>
              <td className="num" data-label="Hands">
                {t.hands_played}
              </td>
              {props.actions && <td data-label="Actions">{props.actions(t)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TablesList() {
  // No feed lists tables or their player counts, so the list is read again every 5 s.
  const read = useQuery({ queryKey: pokerKeys.tables(), queryFn: pokerApi.tables, refetchInterval: 5000 });
  const tables: TableSummary[] | null = read.data ?? null;
  const error = read.error ? errorText(read.error) : null;
  return (
    <section className="card">
      <h1>Poker tables</h1>
      {error && <p className="error small">{error}</p>}
      {tables === null ? (
        <p className="muted">Loading…</p>
      ) : tables.length === 0 ? (
        <p className="muted">No tables yet.</p>
      ) : (
        <TableRows tables={tables} />
      )}
    </section>
  );
}
