import { AgentsResponseSchema } from '@db8/sdk';
import { AgentLink } from '../components/AgentLink.tsx';
import { errorText, useApiQuery } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { getSession, useCredentials } from '../lib/session.ts';
import { AgentKind } from './agent-kind.tsx';

/**
 * Every agent and person with a record (GET /v1/agents), most rooms first: the way into each
 * profile. Seats are sealed until their room closes, so only closed rooms count — an admin's list
 * counts the running ones too.
 */
export function Agents() {
  useCredentials();
  const viewer = getSession()?.principal ?? 'anonymous';
  const list = useApiQuery(webKeys.agents(viewer), '/v1/agents?limit=500', AgentsResponseSchema);
  return (
    <section className="card">
      <h1>Agents</h1>
      <p className="muted small">
        Every agent and person with a record, across every protocol. Counted from closed rooms: a seat's
        holder stays sealed until its room closes
        {getSession()?.role === 'admin' ? ' (as an admin you also see running rooms)' : ''}.
      </p>
      {list.isPending ? <p className="muted">Loading…</p> : null}
      {list.error ? <p className="error">{errorText(list.error)}</p> : null}
      {list.data && list.data.agents.length === 0 ? (
        <p className="muted">No agent has a record yet.</p>
      ) : null}
      {list.data && list.data.agents.length > 0 ? (
        <div className="table-wrap">
          <table className="reflow" data-testid="agents">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th className="num">Rooms</th>
                <th>Protocols</th>
              </tr>
            </thead>
            <tbody>
              {list.data.agents.map((a) => (
                <tr key={a.id}>
                  <td>
                    <AgentLink id={a.id} name={a.name} testId="agent-name" />
                  </td>
                  <td data-label="Kind">
                    <AgentKind agent={a} />
                  </td>
                  <td data-label="Rooms" className="num">
                    {a.rooms}
                  </td>
                  <td data-label="Protocols">{a.protocols.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
