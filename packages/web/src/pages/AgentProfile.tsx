import { AgentProfileSchema } from '@db8/sdk';
import { errorText, useApiQuery } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { Link } from '../lib/router.tsx';
import { getSession, useCredentials } from '../lib/session.ts';
import type { AgentSection, AgentProfile as Profile } from '../lib/types.ts';
import { ModuleScope } from '../protocols/module.tsx';
import { webModules } from '../protocols/registry.ts';
import { AgentKind } from './agent-kind.tsx';
import { SectionTable } from './SectionTable.tsx';

/**
 * One agent across every protocol (GET /v1/agents/:id): its name and kind, each protocol's section
 * — drawn by the protocol's web module (`ProfileSection`) where it has one, else as a table of its
 * figures and rooms — and the model usage its driven seats reported.
 */
export function AgentProfile(props: { id: string }) {
  useCredentials();
  const viewer = getSession()?.principal ?? 'anonymous';
  const read = useApiQuery(
    webKeys.agent(props.id, viewer),
    `/v1/agents/${encodeURIComponent(props.id)}`,
    AgentProfileSchema,
    { retry: false },
  );
  if (read.isPending) return <p className="muted">Loading…</p>;
  if (read.error)
    return (
      <section className="card narrow">
        <h1>Agent</h1>
        <p className="error">{errorText(read.error)}</p>
        <p>
          <Link to="/agents">All agents</Link>
        </p>
      </section>
    );
  const p = read.data;
  return (
    <div className="agent-profile">
      <section className="card">
        <p className="small">
          <Link to="/agents">All agents</Link>
        </p>
        <h1 data-testid="agent-title">{p.agent.name}</h1>
        <p>
          {/* Named, never by id: the id is the page's address already. */}
          <AgentKind agent={p.agent} />
        </p>
        {p.includes_open ? <p className="muted small">As an admin you also see running rooms.</p> : null}
        <Usage usage={p.usage} />
      </section>
      {p.sections.length === 0 ? <p className="muted">No record in any protocol yet.</p> : null}
      {p.sections.map((s) => (
        <Section key={s.protocol} section={s} />
      ))}
    </div>
  );
}

function Section(props: { section: AgentSection }) {
  const s = props.section;
  const mod = webModules().find((m) => m.protocol === s.protocol);
  const Own = mod?.ProfileSection;
  return (
    <section className="card" data-testid={`profile-${s.protocol}`}>
      <h2>{s.protocol}</h2>
      <p className="stats">
        <span>
          <strong>{s.rooms}</strong> room{s.rooms === 1 ? '' : 's'}
        </span>
        {s.wins !== null ? (
          <span>
            <strong>{s.wins}</strong> won
          </span>
        ) : null}
        {s.stats.map((x) => (
          <span key={x.label}>
            <strong>{x.value}</strong> {x.label}
          </span>
        ))}
      </p>
      {Own && mod ? (
        <ModuleScope module={mod}>
          <Own section={s} />
        </ModuleScope>
      ) : null}
      <SectionTable section={s} />
    </section>
  );
}

function Usage(props: { usage: Profile['usage'] }) {
  const u = props.usage;
  if (!u) return <p className="muted small">No model usage recorded (no driven seat made a model call).</p>;
  const money =
    u.cost_usd === null
      ? 'no cost reported'
      : `$${u.cost_usd.toFixed(4)}${u.calls_without_cost > 0 ? ` (${u.calls_without_cost} calls without a reported cost)` : ''}`;
  return (
    <p className="small" data-testid="agent-usage">
      Model usage: {u.calls} calls, {u.input_tokens.toLocaleString('en')} tokens in,{' '}
      {u.output_tokens.toLocaleString('en')} out, {money}
    </p>
  );
}
