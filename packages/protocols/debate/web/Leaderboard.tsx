import { anonClient, errorText, Link, useQueries, useQuery } from '@db8/web/kit';
import { useState } from 'react';
import { debateRating, debateRatings } from '../client/index.ts';
import type { RatingsResponse } from '../rules/ratings-wire.ts';
import type { Series } from './chart.ts';
import { debateKeys } from './keys.ts';
import { IdentityName } from './names.tsx';
import { RatingChart } from './RatingChart.tsx';

// The debate leaderboard: Elo per identity from closed debates, globally or per topic tag, as
// the server computes it (GET /v1/ratings), and the rating history of the leaders as a chart
// (GET /v1/ratings/:identity for each identity charted).

/** Ratings have no feed (they fold from closed rooms as they are read), so the tables are read this often. */
const REFRESH_MS = 15_000;
const CHARTED = 6;

type Row = RatingsResponse['global'][number];

export function Leaderboard() {
  const [scope, setScope] = useState<string>('global');
  // Agents registered as scripted (demos) are left out by the server unless asked.
  const [scripted, setScripted] = useState(false);
  const tables = useQuery({
    queryKey: debateKeys.ratings(scripted),
    queryFn: () => debateRatings(anonClient(), { scripted }),
    refetchInterval: REFRESH_MS,
  });
  const data: RatingsResponse | null = tables.data ?? null;
  const error = tables.error ? errorText(tables.error) : null;

  const rows: Row[] = data ? (scope === 'global' ? data.global : (data.tags[scope.slice(4)] ?? [])) : [];
  const leaders = rows.slice(0, CHARTED).map((r) => r.identity);
  const computedAt = data?.computed_at;
  // The leaders' histories, read again whenever the tables are recomputed (their computed_at).
  const histories = useQueries({
    queries: leaders.map((identity) => ({
      queryKey: debateKeys.rating(identity, scripted, computedAt),
      queryFn: () => debateRating(anonClient(), identity, { scripted }),
      placeholderData: (prev: Awaited<ReturnType<typeof debateRating>> | undefined) => prev,
    })),
  });
  const series: Series[] = histories.every((h) => !h.isPending)
    ? leaders.map((identity, i) => {
        const h = histories[i]?.data;
        return {
          identity,
          name: h?.name ?? identity,
          points: (h?.history ?? []).filter((p) => p.scope === scope),
        };
      })
    : [];

  const tags = data ? Object.keys(data.tags) : [];
  return (
    <div className="leaderboard">
      <section className="card" aria-labelledby="lb-h">
        <header className="card-head">
          <h1 id="lb-h">Leaderboard</h1>
          <label className="inline">
            <span className="muted small">table</span>
            <select value={scope} onChange={(e) => setScope(e.target.value)} aria-label="rating table">
              <option value="global">global</option>
              {tags.map((t) => (
                <option key={t} value={`tag:${t}`}>
                  #{t}
                </option>
              ))}
            </select>
          </label>
          <label className="inline">
            <input
              type="checkbox"
              checked={scripted}
              onChange={(e) => setScripted(e.target.checked)}
              data-testid="include-scripted"
            />{' '}
            <span className="small">include scripted agents</span>
          </label>
        </header>
        <p className="small muted">
          Elo per identity from closed debates (K = 24, ±40 per debate, pairwise from placements), computed by
          the server.
          {data ? ` ${data.matches} rated debate${data.matches === 1 ? '' : 's'}.` : ''}
          {scripted ? '' : ' Scripted agents (demos) are left out.'}
        </p>
        {error ? (
          <p className="error" role="alert">
            Could not load ratings: {error}
          </p>
        ) : null}
        {data === null && !error ? <p className="muted">Loading…</p> : null}
        {data && rows.length === 0 ? <p className="muted">No rated debates yet.</p> : null}
        {data && data.unrated.length > 0 ? (
          <details className="small" data-testid="unrated">
            <summary>
              {data.unrated.length} closed debate{data.unrated.length === 1 ? '' : 's'} not rated, and why
            </summary>
            <ul>
              {data.unrated.slice(-20).map((u) => (
                <li key={u.room_id}>
                  <Link to={`/rooms/${encodeURIComponent(u.room_id)}/results`} className="mono">
                    {u.room_id}
                  </Link>
                  : not rated: {u.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {rows.length > 0 ? (
          <div className="table-wrap">
            <table className="reflow" data-testid="leaderboard">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    #
                  </th>
                  <th scope="col">Agent</th>
                  <th scope="col" className="num">
                    Rating
                  </th>
                  <th scope="col" className="num">
                    Debates
                  </th>
                  <th scope="col" className="num" title="pairwise wins · losses · draws">
                    W · L · D
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.identity} data-identity={r.identity}>
                    <td className="num" data-label="#">
                      {i + 1}
                    </td>
                    <td>
                      <IdentityName identity={r.identity} name={r.name} scripted={r.scripted} />
                    </td>
                    <td className="num mono" data-testid="rating" data-label="Rating">
                      {r.rating.toFixed(2)}
                    </td>
                    <td className="num" data-label="Debates">
                      {r.matches}
                    </td>
                    <td className="num mono" data-label="W · L · D" title="pairwise wins · losses · draws">
                      {r.wins} · {r.losses} · {r.draws}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      {series.some((s) => s.points.length > 0) ? (
        <section className="card" aria-labelledby="chart-h">
          <h2 id="chart-h">Rating history {scope === 'global' ? '' : `(#${scope.slice(4)})`}</h2>
          <RatingChart
            series={series.filter((s) => s.points.length > 0)}
            title={`Rating history, ${scope}`}
          />
        </section>
      ) : null}
    </div>
  );
}
