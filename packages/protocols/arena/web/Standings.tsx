import { Link } from '@db8/web/kit';
import {
  type ArenaView,
  isOutsideKind,
  type PokerStats,
  pokerTable,
  standingsTable,
} from '../rules/index.ts';
import { ArenaPlots } from './ArenaPlots.tsx';
import { ClaimInvite } from './Claim.tsx';
import { Downloads, stemOf } from './Downloads.tsx';
import { OrganizerInvites } from './Invites.tsx';
import type { ArenaScoring } from './index.ts';
import { WaitsFor, YourMatches } from './Outside.tsx';
import { VerifyTournament } from './VerifyTournament.tsx';

// The tournament in words and pictures: the standings table, poker's bb/100, the plots
// (ArenaPlots: ratings with intervals, bankroll curves, the win-rate matrix), every table with its
// CSV and JSON downloads, and every match linked to its room.

const signed = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(1)}`;

/** Poker: big blinds won per 100 hands over the duplicate sets, and the hands an edge would need. */
function PokerRates({ poker, stem }: { poker: PokerStats; stem: string }) {
  return (
    <section aria-labelledby="arena-bb100">
      <h3 id="arena-bb100">
        Win rate (big blind {poker.bigBlind}){' '}
        <Downloads table={pokerTable(poker)} stem={stem} label="the poker win rates" />
      </h3>
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

export function StandingsSummary(props: {
  view: unknown;
  status: string;
  roomId: string;
  scoring?: ArenaScoring;
}) {
  const v = props.view as Partial<ArenaView> | null;
  const s = v?.standings;
  if (!v || !s) return <p>Tournament: {props.status}</p>;
  const separated = s.rows.some((r) => r.clearOfNext);
  const stem = stemOf(v.name ?? 'arena');
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
      <ClaimInvite status={props.status} />
      <YourMatches />
      {v.entrants?.some((e) => isOutsideKind(e.kind)) ? <OrganizerInvites status={props.status} /> : null}
      <VerifyTournament view={v} status={props.status} scoring={props.scoring ?? {}} />
      <Downloads table={standingsTable(s)} stem={stem} label="the standings" />
      <div className="table-wrap">
        <table className="reflow" data-testid="arena-standings-table">
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
      {s.poker ? <PokerRates poker={s.poker} stem={stem} /> : null}
      <ArenaPlots standings={s} matrix={v.matrix} series={v.series} stem={stem} />
      <details>
        <summary>Matches</summary>
        <ul>
          {(v.matches ?? []).map((m) => {
            // Named by its entrants, not by its room's id (the link carries that).
            const label = `${m.id}: ${m.entrants.join(' vs ')}`;
            return (
              <li key={m.id}>
                {m.result ? (
                  <>
                    <Link to={`/rooms/${encodeURIComponent(m.result.room)}`}>{label}</Link> —{' '}
                    {m.result.placements
                      .map((p) => `${p.entrant} ${p.score > 0 ? '+' : ''}${p.score}`)
                      .join(', ')}{' '}
                    (tree head {m.result.head.size} / {m.result.head.rootHash.slice(0, 12)}…)
                  </>
                ) : (
                  <>
                    {label} <WaitsFor view={v} match={m.id} entrants={m.entrants} />
                  </>
                )}
              </li>
            );
          })}
        </ul>
      </details>
    </div>
  );
}
