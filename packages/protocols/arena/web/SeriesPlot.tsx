import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';
import type { EntrantSeries, SeriesPoint } from '../rules/index.ts';
import { colorOf } from './palette.ts';

// One curve per entrant over its sets (rules/charts.ts): a line for the value after each set and a
// shaded band for its 95% interval (none before two sets). Bankroll plots the total score; poker's
// second plot the running bb/100. A band clear of the zero line is an edge that is not noise.

export interface SeriesPick {
  value: (p: SeriesPoint) => number | undefined;
  band: (p: SeriesPoint) => [number, number] | null | undefined;
}

export const BANKROLL: SeriesPick = { value: (p) => p.total, band: (p) => p.band };
export const BB100: SeriesPick = { value: (p) => p.bb100, band: (p) => p.bb100Band };

type Row = Record<string, number | [number, number] | null>;

/** One row per set index k, with v<i> (entrant i's value) and b<i> (its band) where it has one. */
function rowsOf(series: readonly EntrantSeries[], pick: SeriesPick): Row[] {
  const n = Math.max(0, ...series.map((s) => s.points.length));
  return Array.from({ length: n }, (_, j) => {
    const row: Row = { k: j + 1 };
    series.forEach((s, i) => {
      const p = s.points[j];
      const v = p ? pick.value(p) : undefined;
      if (v === undefined) return;
      row[`v${i}`] = Number(v.toFixed(1));
      const b = pick.band(p!);
      row[`b${i}`] = b ? [Number(b[0].toFixed(1)), Number(b[1].toFixed(1))] : null;
    });
    return row;
  });
}

export function SeriesPlot(props: {
  series: readonly EntrantSeries[];
  pick: SeriesPick;
  title: string;
  testId: string;
}) {
  const rows = rowsOf(props.series, props.pick);
  if (rows.length === 0) return <p>No complete sets yet.</p>;
  return (
    <figure className="arena-chart" data-testid={props.testId} aria-label={props.title}>
      <ResponsiveContainer width="100%" height={280}>
        <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 18, left: 0 }}>
          <CartesianGrid vertical={false} className="grid" />
          <XAxis
            dataKey="k"
            type="number"
            domain={[1, Math.max(2, rows.length)]}
            allowDecimals={false}
            tick={{ className: 'axis-label' }}
            label={{ value: 'sets played', position: 'insideBottom', offset: -10, className: 'axis-label' }}
          />
          <YAxis width={56} tick={{ className: 'axis-label' }} domain={['auto', 'auto']} />
          <ReferenceLine y={0} className="reference" />
          {props.series.map((s, i) => (
            <Area
              key={`b${s.entrant}`}
              dataKey={`b${i}`}
              name={`${s.entrant} 95% band`}
              stroke="none"
              fill={colorOf(i)}
              fillOpacity={0.14}
              connectNulls={false}
              isAnimationActive={false}
              activeDot={false}
            />
          ))}
          {props.series.map((s, i) => (
            <Line
              key={`v${s.entrant}`}
              dataKey={`v${i}`}
              name={s.entrant}
              stroke={colorOf(i)}
              strokeWidth={2.5}
              dot={false}
              isAnimationActive={false}
              activeDot={false}
              className="series-line"
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
      <figcaption className="legend">
        {props.series.map((s, i) => {
          const last = s.points.at(-1);
          const v = last ? props.pick.value(last) : undefined;
          return (
            <span key={s.entrant} className="legend-item">
              <span className="swatch" style={{ background: colorOf(i) }} aria-hidden="true" />
              {s.entrant}
              {v === undefined ? null : <span className="mono muted small"> {v.toFixed(1)}</span>}
            </span>
          );
        })}
      </figcaption>
    </figure>
  );
}
