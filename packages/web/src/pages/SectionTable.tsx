import { Link } from '../lib/router.tsx';
import type { AgentSection } from '../lib/types.ts';
import { formatWhen } from '../lib/when.ts';

/** A section's rooms: each with its seat, the agent's outcome and when it closed; linked. */
export function SectionTable(props: { section: AgentSection }) {
  const rows = props.section.matches;
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className="reflow">
        <thead>
          <tr>
            <th>Room</th>
            <th>Seat</th>
            <th>Outcome</th>
            <th>Closed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={`${m.room_id}/${m.seat}`} className={m.won ? 'won' : undefined}>
              <td>
                <Link to={`/rooms/${encodeURIComponent(m.room_id)}`}>
                  {m.title ?? `untitled ${props.section.protocol} room`}
                </Link>
              </td>
              <td data-label="Seat">
                {m.seat} <span className="muted small">{m.role}</span>
              </td>
              <td data-label="Outcome" data-testid="outcome">
                {m.won ? <strong>{m.outcome}</strong> : m.outcome}
              </td>
              <td data-label="Closed">{m.closed_at === null ? 'running' : formatWhen(m.closed_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
