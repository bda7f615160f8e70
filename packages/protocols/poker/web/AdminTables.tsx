import {
  CreateRoom,
  errorText,
  getSession,
  Link,
  useCredentials,
  useMutation,
  useQuery,
  useQueryClient,
} from '@db8/web/kit';
import type { TableSummary } from '../rules/index.ts';
import { pokerKeys } from './keys.ts';
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
  const queryClient = useQueryClient();
  // No feed lists tables or their hand counts, so the list is read again every 5 s.
  const read = useQuery({
    queryKey: pokerKeys.adminTables(),
    queryFn: pokerApi.adminTables,
    refetchInterval: 5000,
  });
  const tables: TableSummary[] | null = read.data ?? null;
  const load = () => {
    for (const queryKey of [pokerKeys.adminTables(), pokerKeys.tables()]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  const stopping = useMutation({ mutationFn: pokerApi.stop, onSuccess: load });
  const stop = (id: string) => {
    if (!confirm(`Stop table ${id}? A hand in progress is called off.`)) return;
    stopping.mutate(id);
  };
  const failed = stopping.error ?? read.error;
  const error = failed ? errorText(failed) : null;
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
