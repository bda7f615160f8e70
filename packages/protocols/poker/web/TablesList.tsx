import { Link } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import type { TableSummary } from '../rules/index.ts';
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
  const [tables, setTables] = useState<TableSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      pokerApi
        .tables()
        .then(setTables)
        .catch((e: Error) => setError(e.message));
    void load();
    const t = setInterval(load, 5000);
    return () => clearInterval(t);
  }, []);
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
