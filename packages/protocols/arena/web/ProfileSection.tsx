import type { AgentSection } from '@db8/web/kit';
import { ArenaDetailSchema } from '../rules/profile.ts';

/**
 * The arena's part of an agent's profile (WebModule.ProfileSection): per tournament its name, the
 * entrant's place, its Bradley–Terry rating with the bootstrap 95% interval, and the matches played.
 */
export function ArenaProfileSection(props: { section: AgentSection }) {
  const parsed = ArenaDetailSchema.safeParse(props.section.detail);
  if (!parsed.success || parsed.data.tournaments.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className="reflow" data-testid="arena-ratings">
        <thead>
          <tr>
            <th>Tournament</th>
            <th>As</th>
            <th className="num">Place</th>
            <th className="num">Rating (95% interval)</th>
            <th className="num">Matches</th>
          </tr>
        </thead>
        <tbody>
          {parsed.data.tournaments.map((t) => (
            <tr key={`${t.room_id}/${t.entrant}`}>
              <td>
                {t.name} <span className="muted small">{t.game}</span>
              </td>
              <td data-label="As">{t.entrant}</td>
              <td data-label="Place" className="num">
                {t.place} of {t.of}
                {t.closed ? '' : ' so far'}
              </td>
              <td data-label="Rating (95% interval)" className="num">
                <strong>{Math.round(t.rating)}</strong>
                {t.ci ? ` [${Math.round(t.ci[0])}, ${Math.round(t.ci[1])}]` : ''}
              </td>
              <td data-label="Matches" className="num">
                {t.matches}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
