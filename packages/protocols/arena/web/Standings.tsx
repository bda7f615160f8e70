import { Link } from '@db8/web/kit';
import type { ArenaView, PokerStats, StandingRow } from '../rules/index.ts';

// The tournament in words and one picture: each entrant's Bradley–Terry rating as a dot with its
// bootstrap 95% interval as a bar (plain SVG), the record beside it, and every match linked to its
// room. A rank whose interval overlaps the next one's is marked as not yet separated.

const W = 320;
const ROW = 22;

function scale(rows: readonly StandingRow[]) {
  const xs = rows.flatMap((r) => (r.ci ? [r.ci[0], r.ci[1], r.rating] : [r.rating]));
  const lo = Math.min(...xs) - 20;
  const hi = Math.max(...xs) + 20;
  return (v: number) => 8 + ((v - lo) / (hi - lo || 1)) * (W - 16);
}

function Bars({ rows }: { rows: readonly StandingRow[] }) {
  const x = scale(rows);
  return (
    <svg
      width={W}
      height={rows.length * ROW + 8}
      role="img"
      aria-label="ratings with 95% intervals"
      style={{ maxWidth: '100%' }}
    >
      <line x1={x(1000)} x2={x(1000)} y1={0} y2={rows.length * ROW + 8} stroke="#bbb" strokeDasharray="3 3" />
      {rows.map((r, i) => {
        const y = 4 + i * ROW + ROW / 2;
        return (
          <g key={r.entrant}>
            {r.ci ? (
              <line x1={x(r.ci[0])} x2={x(r.ci[1])} y1={y} y2={y} stroke="#4a7bd0" strokeWidth={4} />
            ) : null}
            <circle cx={x(r.rating)} cy={y} r={5} fill="#1d3f80" />
          </g>
        );
      })}
    </svg>
  );
}

const signed = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(1)}`;

/** Poker: big blinds won per 100 hands over the duplicate sets, and the hands an edge would need. */
function PokerRates({ poker }: { poker: PokerStats }) {
  return (
    <section aria-labelledby="arena-bb100">
      <h3 id="arena-bb100">Win rate (big blind {poker.bigBlind})</h3>
      <div style={{ overflowX: 'auto', maxWidth: '100%' }}>
        <table className="reflow" data-testid="arena-bb100">
          <thead>
            <tr>
              <th>entrant</th>
              <th>bb/100</th>
              <th>95% interval</th>
              <th>hands</th>
              <th>hands for a clear interval</th>
            </tr>
          </thead>
          <tbody>
            {poker.rows.map((r) => {
              const clear = r.ci !== null && (r.ci[0] > 0 || r.ci[1] < 0);
              return (
                <tr key={r.entrant}>
                  <td>{r.entrant}</td>
                  <td data-label="bb/100">{signed(r.bb100)}</td>
                  <td data-label="95% interval">
                    {r.ci ? `${signed(r.ci[0])} to ${signed(r.ci[1])}` : '—'}
                    {clear ? ' (clear of 0)' : ''}
                  </td>
                  <td data-label="hands">{r.hands.toLocaleString()}</td>
                  <td data-label="hands for a clear interval">
                    {r.handsToExcludeZero === null ? '—' : r.handsToExcludeZero.toLocaleString()}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function StandingsSummary(props: { view: unknown; status: string }) {
  const v = props.view as Partial<ArenaView> | null;
  const s = v?.standings;
  if (!v || !s) return <p>Tournament: {props.status}</p>;
  const separated = s.rows.some((r) => r.clearOfNext);
  return (
    <div data-testid="arena-standings">
      <h2>
        {v.name}: {v.game}, {v.format?.kind} (
        {v.phase === 'closed' ? 'final' : `round ${v.round} of ${v.rounds}`})
      </h2>
      <p>
        {v.played} of {v.matches?.length ?? 0} matches played; {s.sets} sets, {s.games} pairwise games.
        {separated ? '' : ' Not enough games yet: no rank is clear of the next at 95%.'}
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '1rem', alignItems: 'flex-start' }}>
        <div style={{ overflowX: 'auto', maxWidth: '100%' }}>
          <table className="reflow">
            <thead>
              <tr>
                <th>entrant</th>
                <th>rating</th>
                <th>95% interval</th>
                <th>W-D-L</th>
                <th>points</th>
                <th>score</th>
              </tr>
            </thead>
            <tbody>
              {s.rows.map((r) => (
                <tr key={r.entrant}>
                  <td>{r.entrant}</td>
                  <td data-label="rating">{r.rating.toFixed(0)}</td>
                  <td data-label="95% interval">
                    {r.ci ? `${r.ci[0].toFixed(0)}–${r.ci[1].toFixed(0)}` : '—'}
                  </td>
                  <td data-label="W-D-L">
                    {r.wins}-{r.draws}-{r.losses}
                  </td>
                  <td data-label="points">{r.points}</td>
                  <td data-label="score">{r.score}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Bars rows={s.rows} />
      </div>
      {s.poker ? <PokerRates poker={s.poker} /> : null}
      <details>
        <summary>Matches</summary>
        <ul>
          {(v.matches ?? []).map((m) => (
            <li key={m.id}>
              {m.id}: {m.entrants.join(' vs ')}{' '}
              {m.result ? (
                <>
                  — <Link to={`/rooms/${encodeURIComponent(m.result.room)}`}>{m.result.room}</Link> (
                  {m.result.placements.map((p) => `${p.entrant} ${p.score}`).join(', ')}; tree head{' '}
                  {m.result.head.size} / {m.result.head.rootHash.slice(0, 12)}…)
                </>
              ) : (
                '— playing'
              )}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
