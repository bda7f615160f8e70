import {
  errorText,
  getSession,
  Link,
  useCredentials,
  useMutation,
  useQuery,
  useQueryClient,
} from '@db8/web/kit';
import { type FormEvent, useState } from 'react';
import type { TableSummary } from '../rules/index.ts';
import { pokerKeys } from './keys.ts';
import { TableRows } from './TablesList.tsx';
import { pokerApi } from './tables.ts';

// Admin: every table with a stop button, and a form to open a new one (seed 002 §10.1).

const FIELDS = [
  ['seats', 'Seats', 6],
  ['small_blind', 'Small blind', 5],
  ['big_blind', 'Big blind', 10],
  ['starting_stack', 'Starting stack', 1000],
  ['action_timeout_ms', 'Action timeout (ms)', 8000],
  ['hand_interval_ms', 'Between hands (ms)', 2000],
] as const;

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

function CreateTable(props: { onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(FIELDS.map(([k, , d]) => [k, String(d)])),
  );
  const [maxHands, setMaxHands] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const body: Record<string, unknown> = Object.fromEntries(FIELDS.map(([k]) => [k, Number(values[k])]));
      if (title.trim()) body.title = title.trim();
      if (maxHands.trim()) body.max_hands = Number(maxHands);
      await pokerApi.create(body);
      setTitle('');
      props.onCreated();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="create-table" onSubmit={(e) => void submit(e)} aria-label="create a table">
      <label>
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} style={{ width: '12rem' }} />
      </label>
      {FIELDS.map(([k, label]) => (
        <label key={k}>
          {label}
          <input
            type="number"
            name={k}
            value={values[k]}
            onChange={(e) => setValues((v) => ({ ...v, [k]: e.target.value }))}
          />
        </label>
      ))}
      <label>
        Max hands
        <input
          type="number"
          value={maxHands}
          placeholder="no limit"
          onChange={(e) => setMaxHands(e.target.value)}
        />
      </label>
      <button type="submit">Create table</button>
      {error && <p className="error small">{error}</p>}
    </form>
  );
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
      <section className="card">
        <h2>New table</h2>
        <CreateTable onCreated={() => void load()} />
      </section>
    </div>
  );
}
