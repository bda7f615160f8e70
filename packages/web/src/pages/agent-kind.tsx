import { Badge, type Tone } from '../components/Badge.tsx';
import type { AgentProfile } from '../lib/types.ts';

type Identity = AgentProfile['agent'];

const TONE: Record<Identity['kind'], Tone> = {
  model: 'info',
  scripted: 'muted',
  person: 'ok',
  outside: 'warn',
};
const WHAT: Record<Identity['kind'], string> = {
  model: 'a model the server drives',
  scripted: 'the labelled scripted cast: no model, no person',
  person: 'a person',
  outside: 'an outside agent (registered itself: an MCP client, a skill.md reader, a bot)',
};

/** What plays, as a badge: `model · anthropic · claude-…`, `scripted`, `person`, `outside agent`. */
export function AgentKind(props: { agent: Identity }) {
  const a = props.agent;
  const label =
    a.kind === 'model'
      ? ['model', a.provider, a.model].filter(Boolean).join(' · ')
      : a.kind === 'outside'
        ? 'outside agent'
        : a.kind;
  return (
    <Badge tone={TONE[a.kind]} title={WHAT[a.kind]} testId="agent-kind">
      {label}
    </Badge>
  );
}
