import { Badge, Link, SeatWho, useSeatLabels } from '@db8/web/kit';
import { useMemo } from 'react';
import { checkChain } from './chain-check.ts';
import { type EloChange, useEloChanges } from './elo.ts';
import type { DebateView } from './model.ts';
import { IdentityName, useIdentityNames } from './names.tsx';

// The results: placements (approvals, Borda), the rubric and the bonuses per debater, each
// debater's Elo change once the room is closed and rated, the unmasked names once revealed (a seat
// the server names — a tournament's entrant — by that name), and the journal badge (the round
// chain recomputed in this browser, and whether it is published).

const fmt = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${fmt(Math.abs(n))}`;

function JournalBadge(props: { view: DebateView; roomId: string }) {
  const check = useMemo(() => checkChain(props.view), [props.view]);
  const published = props.view.journal.published;
  return (
    <p className="journal-badge" data-testid="journal-badge">
      {check.ok ? (
        <Badge tone="ok" title={`chain head ${check.head}`}>
          ✓ chain verified here · {check.submissions} submissions in {check.rounds} rounds
        </Badge>
      ) : (
        <Badge tone="bad" title={check.reason}>
          ✗ chain check failed: {check.reason}
        </Badge>
      )}{' '}
      <Badge tone={published ? 'ok' : 'muted'}>
        {published ? 'journal published' : 'journal not yet published'}
      </Badge>{' '}
      <span className="mono small muted" title={props.view.journal.chain}>
        head {props.view.journal.chain.slice(0, 12)}…
      </span>{' '}
      <Link to={`/rooms/${encodeURIComponent(props.roomId)}/journal`} className="small">
        Verify every entry
      </Link>
    </p>
  );
}

function EloCell(props: {
  change: EloChange | undefined;
  closed: boolean;
  masked: boolean;
  identity: string | null;
  scripted: boolean;
  unrated: boolean;
}) {
  if (props.masked) return <span className="muted small">after the reveal</span>;
  if (!props.identity) return <span className="muted small">anonymous</span>;
  if (!props.closed) return <span className="muted small">when closed</span>;
  if (props.unrated) return <span className="muted small">not rated</span>;
  const c = props.change;
  if (!c) return <span className="muted small">…</span>;
  if (c.kind === 'none')
    return <span className="muted small">{props.scripted ? 'not rated (scripted)' : 'not rated'}</span>;
  return (
    <span
      className={c.delta > 0 ? 'ok' : c.delta < 0 ? 'error' : ''}
      title={`${fmt(c.before)} → ${fmt(c.after)}`}
    >
      {signed(c.delta)} <span className="muted small">→ {fmt(c.after)}</span>
    </span>
  );
}

export function Results(props: { view: DebateView; roomId: string }) {
  const { view } = props;
  const res = view.results;
  const ids = res?.identities ?? null;
  const closed = view.phase === 'closed';
  const elo = useEloChanges(props.roomId, closed ? ids : null);
  const known = useIdentityNames(Object.values(ids ?? {}));
  const labels = useSeatLabels(props.roomId);
  if (!res) return null;
  const score = new Map(res.scores.map((s) => [s.seat, s]));
  const stats = new Map(res.stats.map((s) => [s.seat, s]));
  const name = (seat: string) => ids?.[seat] ?? null;
  const shown = (seat: string) => {
    const id = name(seat);
    return id ? (known[id]?.name ?? id) : seat;
  };

  return (
    <section className="card results" aria-labelledby="results-h" data-testid="results">
      <header className="card-head">
        <h2 id="results-h">Results</h2>
        <span>
          {ids ? (
            <Badge tone="info">names unmasked</Badge>
          ) : (
            <Badge tone="muted">names masked until the reveal</Badge>
          )}{' '}
          <Link to={`/rooms/${encodeURIComponent(props.roomId)}/results`} className="small">
            Results page
          </Link>
        </span>
      </header>
      <JournalBadge view={view} roomId={props.roomId} />
      {closed && elo.unrated ? (
        <p className="small muted" data-testid="not-rated">
          Not rated: {elo.unrated}.
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="placements reflow" data-testid="placements">
          <thead>
            <tr>
              <th scope="col" className="num">
                Place
              </th>
              <th scope="col">Debater</th>
              <th scope="col" className="num">
                Approvals
              </th>
              <th scope="col" className="num">
                Borda
              </th>
              <th scope="col" className="num">
                Total
              </th>
              <th scope="col" className="num">
                Elo
              </th>
            </tr>
          </thead>
          <tbody>
            {res.placements.map((p) => (
              <tr key={p.seat} data-seat={p.seat} className={p.place === 1 ? 'winner' : ''}>
                <td className="num place" data-label="Place">
                  {p.place === 1 ? (
                    <span className="badge badge-ok" title="first place">
                      winner
                    </span>
                  ) : null}{' '}
                  {p.place}
                </td>
                <td>
                  {labels.has(p.seat) ? (
                    <span data-testid="placement-name">
                      <SeatWho seat={p.seat} label={labels.get(p.seat)} />
                    </span>
                  ) : name(p.seat) ? (
                    <span>
                      <IdentityName
                        testId="placement-name"
                        identity={name(p.seat)!}
                        name={known[name(p.seat)!]?.name}
                        scripted={known[name(p.seat)!]?.scripted === true}
                      />
                      <span className="mono small muted"> · {p.seat}</span>
                    </span>
                  ) : (
                    <strong data-testid="placement-name">{p.seat}</strong>
                  )}
                </td>
                <td className="num" data-label="Approvals">
                  {p.approvals}
                </td>
                <td className="num" data-label="Borda">
                  {p.borda}
                </td>
                <td className="num mono" data-label="Total">
                  {fmt(p.total)}
                </td>
                <td className="num" data-testid="elo" data-label="Elo">
                  <EloCell
                    change={name(p.seat) ? elo.changes[name(p.seat)!] : undefined}
                    unrated={elo.unrated !== null}
                    closed={closed}
                    masked={ids === null}
                    identity={name(p.seat)}
                    scripted={known[name(p.seat) ?? '']?.scripted === true}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Scores</h3>
      <div className="table-wrap">
        <table className="scores reflow" data-testid="scores">
          <thead>
            <tr>
              <th scope="col">Debater</th>
              <th scope="col" className="num" title="trimmed mean of the judges' weighted cards">
                Rubric
              </th>
              <th scope="col" title="Evidence / Reasoning / Clarity / ciVility / Yielding">
                E · R · C · V · Y
              </th>
              <th scope="col" className="num">
                Movement
              </th>
              <th scope="col" className="num">
                Concessions
              </th>
              <th scope="col" className="num">
                Calibration
              </th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {res.placements.map(({ seat }) => {
              const s = score.get(seat);
              const st = stats.get(seat);
              if (!s) return null;
              const d = s.dimensions;
              return (
                <tr key={seat}>
                  <td>
                    {labels.has(seat) ? <SeatWho seat={seat} label={labels.get(seat)} /> : shown(seat)}
                    {st ? (
                      <div className="small muted">
                        {st.submitted} submitted · {st.verified} verified · {st.rejected} rejected ·{' '}
                        {st.forfeits} forfeits
                        {st.signed ? ` · ${st.signed} signed` : ''}
                      </div>
                    ) : null}
                  </td>
                  <td className="num mono" data-label="Rubric">
                    {fmt(s.rubric)}{' '}
                    <span className="muted small">
                      ({s.judges} judge{s.judges === 1 ? '' : 's'})
                    </span>
                  </td>
                  <td className="mono small" data-label="E · R · C · V · Y">
                    {d ? [d.e, d.r, d.c, d.v, d.y].map((x) => Math.round(x)).join(' · ') : '—'}
                  </td>
                  <td className="num mono" data-label="Movement">
                    {signed(s.movement)}
                  </td>
                  <td className="num mono" data-label="Concessions">
                    {signed(s.concessions)}
                  </td>
                  <td
                    className="num mono"
                    data-label="Calibration"
                    title={s.brier === null ? 'no checked claim with a confidence' : `Brier ${s.brier}`}
                  >
                    {signed(s.calibration)}
                  </td>
                  <td className="num mono" data-label="Total">
                    <strong>{fmt(s.total)}</strong>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="small muted">
        {res.ballots} ballots · placements by{' '}
        {res.placement === 'approval' ? 'approvals, then Borda, then score' : 'total score'} ·{' '}
        <Link to="/leaderboard">Leaderboard</Link>
      </p>
    </section>
  );
}
