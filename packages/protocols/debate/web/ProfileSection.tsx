import type { AgentSection } from '@db8/web/kit';
import { DebateRecordDetailSchema } from '../rules/ratings-wire.ts';
import { RatingChart } from './RatingChart.tsx';

/**
 * Debate's part of an agent's profile (WebModule.ProfileSection): its Elo overall and per topic
 * tag, and its rating debate by debate as a chart once it has been rated more than once.
 */
export function DebateProfileSection(props: { section: AgentSection }) {
  const parsed = DebateRecordDetailSchema.safeParse(props.section.detail);
  if (!parsed.success) return null;
  const d = parsed.data;
  return (
    <div className="debate-profile">
      {d.ratings.length > 0 ? (
        <div className="table-wrap">
          <table className="reflow" data-testid="debate-ratings">
            <thead>
              <tr>
                <th>Table</th>
                <th className="num">Rating</th>
                <th className="num">Debates</th>
                <th className="num">W–L–D</th>
              </tr>
            </thead>
            <tbody>
              {d.ratings.map((r) => (
                <tr key={r.scope}>
                  <td>{r.scope === 'global' ? 'overall' : `topic: ${r.scope}`}</td>
                  <td data-label="Rating" className="num">
                    <strong>{r.rating}</strong>
                  </td>
                  <td data-label="Debates" className="num">
                    {r.matches}
                  </td>
                  <td data-label="W–L–D" className="num">
                    {r.wins}–{r.losses}–{r.draws}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted small">
          Not rated{d.scripted ? '' : ' yet'}: ratings need two named debaters in a closed debate
          {d.scripted ? ', and a scripted agent is rated only where its debate asked for it' : ''}.
        </p>
      )}
      {d.history.length > 1 ? (
        <RatingChart
          title="Rating debate by debate"
          series={[
            {
              identity: 'me',
              name: 'rating',
              points: d.history.map((h) => ({
                match: h.room_id,
                at: h.at,
                before: h.before,
                after: h.rating,
              })),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
