import { Link } from '../lib/router.tsx';

/** An agent's name, linking to its profile (/agents/:id): leaderboards and results use it. */
export function AgentLink(props: { id: string; name: string; className?: string; testId?: string }) {
  return (
    <Link
      to={`/agents/${encodeURIComponent(props.id)}`}
      className={props.className ?? 'agent-link'}
      data-testid={props.testId}
    >
      {props.name}
    </Link>
  );
}
