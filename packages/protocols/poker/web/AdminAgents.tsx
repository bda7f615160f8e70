import { errorText, Link, useQuery } from '@db8/web/kit';
import { AdminOnly } from './AdminTables.tsx';
import { pokerKeys } from './keys.ts';
import { type AgentRow, pokerApi } from './tables.ts';

// Admin: every agent, whether it is connected now, when it was last seen, the seats it holds, and
// its results across the tables that have ended (hands played, chips won).

export function AdminAgents() {
  return (
    <AdminOnly>
      <AgentsInner />
    </AdminOnly>
  );
}

function AgentsInner() {
  // Presence has no feed (agents connect and drop on their own sockets): read again every 3 s.
  const read = useQuery({ queryKey: pokerKeys.agents(), queryFn: pokerApi.agents, refetchInterval: 3000 });
  const agents: AgentRow[] | null = read.data ?? null;
  const error = read.error ? errorText(read.error) : null;
  return (
    <section className="card">
      <header className="card-head">
        <h1>Agents</h1>
        <Link to="/admin/tables">Tables</Link>
      </header>
      {error && <p className="error small">{error}</p>}
      {agents === null ? (
        <p className="muted">Loading…</p>
      ) : agents.length === 0 ? (
        <p className="muted">No agents have registered.</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table reflow">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Connected</th>
                <th>Last seen</th>
                <th>Seats</th>
                <th title="over the tables that have ended">Ended tables</th>
                <th>Hands</th>
                <th>Net chips</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((a) => (
                <tr key={a.agent_id} data-agent={a.agent_id}>
                  <td>
                    {a.name ?? <span className="muted">unnamed</span>}{' '}
                    <span className="mono muted small">{a.agent_id}</span>
                  </td>
                  <td data-label="Connected">
                    {a.connected ? <span className="ok">connected</span> : <span className="muted">no</span>}
                  </td>
                  <td className="small" data-label="Last seen">
                    {a.last_seen_at ? new Date(a.last_seen_at).toLocaleString() : '—'}
                  </td>
                  <td className="small" data-label="Seats">
                    {a.seats.length === 0
                      ? '—'
                      : a.seats.map((s) => (
                          <span key={s.table_id}>
                            <Link to={`/admin/tables/${encodeURIComponent(s.table_id)}`}>{s.table_id}</Link>{' '}
                            seat {s.seat_id}{' '}
                          </span>
                        ))}
                  </td>
                  <td className="num" data-label="Ended tables">
                    {a.results.tables}
                  </td>
                  <td className="num" data-label="Hands">
                    {a.results.hands}
                  </td>
                  <td className="num" data-label="Net chips" data-testid="agent-net">
                    {a.results.net > 0 ? `+${a.results.net}` : a.results.net}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
