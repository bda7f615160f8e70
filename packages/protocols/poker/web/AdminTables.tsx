import { CreateRoom, getSession, Link, useCredentials } from '@db8/web/kit';
import { useCallback, useEffect, useState } from 'react';
import type { TableSummary } from '../rules/index.ts';
import { TableRows } from './TablesList.tsx';
import { pokerApi } from './tables.ts';

// Admin: every table with a stop button, and the create-table form (seed 002 §10.1).

export function AdminOnly(props: { children: React.ReactNode }) {
  useCredentials();
  const s = getSession();
  if (s?.role !== 'admin')
    return (
      <section className="card narrow">
        <h1>Admins only</h1>
        <p>
          Sign in with the admin link the server printed. <Link to="/tables">Watch the tables</Link>
        </p>
      </section>
    );
  return <>{props.children}</>;
}

export function AdminTables() {
  return (
    <AdminOnly>
      <AdminTablesInner />
    </AdminOnly>
  );
}

function AdminTablesInner() {
  const [tables, setTables] = useState<TableSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setTables(await pokerApi.adminTables());
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  useEffect(() => {
    void load();
    const t = setInterval(load, 5000);
    return () => clearInterval(t);
  }, [load]);
  const stop = async (id: string) => {
    if (!confirm(`Stop table ${id}? A hand in progress is called off.`)) return;
    try {
      await pokerApi.stop(id);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="poker-page">
      <section className="card">
        <header className="card-head">
          <h1>Tables</h1>
          <Link to="/admin/agents">Agents</Link>
        </header>
        {error && <p className="error small">{error}</p>}
        {tables === null ? (
          <p className="muted">Loading…</p>
        ) : tables.length === 0 ? (
          <p className="muted">No tables yet.</p>
        ) : (
          <TableRows
            tables={tables}
            admin
            actions={(t) => (
              <>
                <Link to={`/tables/${encodeURIComponent(t.table_id)}`}>watch</Link>{' '}
                {t.status !== 'ended' && (
                  <button type="button" className="ghost" onClick={() => void stop(t.table_id)}>
                    Stop
                  </button>
                )}
              </>
            )}
          />
        )}
      </section>
      {/* The lobby's form (same fields, units, defaults and seat drivers), for poker only. */}
      <CreateRoom protocol="poker" heading="New table" onCreated={() => void load()} />
    </div>
  );
}
