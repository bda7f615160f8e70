import {
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  XAxis,
  YAxis,
} from 'recharts';
import { type RatingStatus, ratingsTable, type Standings } from '../rules/index.ts';
import { Downloads } from './Downloads.tsx';

// Each entrant's Bradley–Terry rating as a dot with its bootstrap 95% interval as a bar, best
// first. A rating that is not clear of its neighbours is drawn hollow and says "not enough games";
// an entrant with no games has no dot. The table under it is the chart in words (and its download).

interface Point {
  entrant: string;
  rating: number;
  lo: number;
  hi: number;
  status: RatingStatus;
}

/** Whole fifties around every dot and interval end. */
function domainOf(points: readonly Point[]): [number, number] {
  const lo = Math.min(...points.map((p) => p.lo));
  const hi = Math.max(...points.map((p) => p.hi));
  return [Math.floor((lo - 10) / 50) * 50, Math.ceil((hi + 10) / 50) * 50];
}

type ShapeProps = { cx?: number; cy?: number; payload?: Point };

function Dot(p: ShapeProps) {
  if (p.cx === undefined || p.cy === undefined || !p.payload) return <g />;
  const solid = p.payload.status !== 'not enough games';
  return (
    <circle
      cx={p.cx}
      cy={p.cy}
      r={6}
      className={solid ? 'dot' : 'dot hollow'}
      data-entrant={p.payload.entrant}
      data-status={p.payload.status}
    >
      <title>
        {p.payload.entrant}: {p.payload.rating} ({p.payload.status})
      </title>
    </circle>
  );
}

const short = (s: string) => (s.length > 12 ? `${s.slice(0, 11)}…` : s);

export function RatingPlot(props: { standings: Standings; stem: string }) {
  const table = ratingsTable(props.standings);
  const points: Point[] = table.rows
    .filter((r) => r.status !== 'no games')
    .map((r) => {
      const rating = r.rating as number;
      const lo = (r.ci_low as number | null) ?? rating;
      const hi = (r.ci_high as number | null) ?? rating;
      return {
        entrant: r.entrant as string,
        rating,
        lo,
        hi,
        status: r.status as RatingStatus,
      };
    });
  const unsure = table.rows.some((r) => r.status === 'not enough games');
  return (
    <section aria-labelledby="arena-ratings" className="arena-plot">
      <h3 id="arena-ratings">
        Ratings with 95% intervals <Downloads table={table} stem={props.stem} label="the ratings" />
      </h3>
      {points.length > 0 ? (
        <figure
          className="arena-chart"
          data-testid="arena-rating-chart"
          aria-label="ratings with 95% intervals"
        >
          <ResponsiveContainer width="100%" height={48 + 36 * points.length}>
            <ScatterChart margin={{ top: 8, right: 16, bottom: 18, left: 0 }}>
              <CartesianGrid horizontal={false} className="grid" />
              <XAxis
                type="number"
                dataKey="rating"
                domain={domainOf(points)}
                tick={{ className: 'axis-label' }}
                label={{
                  value: 'rating (1000 = average)',
                  position: 'insideBottom',
                  offset: -10,
                  className: 'axis-label',
                }}
              />
              <YAxis
                type="category"
                dataKey="entrant"
                width={96}
                reversed
                tick={{ className: 'axis-label' }}
                tickFormatter={short}
                interval={0}
              />
              <ReferenceLine x={1000} className="reference" strokeDasharray="3 3" />
              {points.map((p) =>
                p.lo === p.hi ? null : (
                  <ReferenceLine
                    key={p.entrant}
                    segment={[
                      { x: p.lo, y: p.entrant },
                      { x: p.hi, y: p.entrant },
                    ]}
                    className="interval"
                    strokeWidth={4}
                  />
                ),
              )}
              <Scatter data={points} shape={Dot} isAnimationActive={false} />
            </ScatterChart>
          </ResponsiveContainer>
          {unsure ? (
            <figcaption className="small muted">
              Hollow dots: not enough games — the interval overlaps its neighbours', so the rank may be noise.
            </figcaption>
          ) : null}
        </figure>
      ) : (
        <p>No games yet: no ratings to draw.</p>
      )}
      <div className="table-wrap">
        <table className="reflow" data-testid="arena-ratings-table">
          <thead>
            <tr>
              <th>entrant</th>
              <th>rating</th>
              <th>95% interval</th>
              <th>games</th>
              <th>status</th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={r.entrant as string}>
                <td>{r.entrant}</td>
                <td data-label="rating">{r.rating}</td>
                <td data-label="95% interval">{r.ci_low === null ? '—' : `${r.ci_low}–${r.ci_high}`}</td>
                <td data-label="games">{r.games}</td>
                <td data-label="status">{r.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
