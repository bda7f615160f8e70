import { CartesianGrid, Line, LineChart, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { chartData, type Series } from './chart.ts';

// Rating history drawn by recharts: one line per identity across the debates it was rated in, a dot
// per debate with its change as a tooltip, and a legend. recharts lays the chart out at the page's
// own pixel size, so its labels keep their CSS size on a phone.

/** Distinguishable in light and dark schemes (Okabe–Ito based). */
export const PALETTE = [
  '#4f46e5',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#0072b2',
  '#e69f00',
  '#56b4e9',
  '#8c6d31',
];

type DotProps = { cx?: number; cy?: number; index?: number; payload?: { x: number } };

export function RatingChart(props: { series: Series[]; title: string }) {
  const m = chartData(props.series);
  return (
    <figure className="rating-chart" data-testid="rating-chart" aria-label={props.title}>
      <ResponsiveContainer width="100%" height={300}>
        <LineChart data={m.rows} margin={{ top: 14, right: 16, bottom: 18, left: 4 }}>
          <CartesianGrid vertical={false} className="grid" />
          <XAxis
            dataKey="x"
            type="number"
            domain={[0, Math.max(1, m.xCount)]}
            tick={false}
            label={{
              value: `${m.xCount} rated debate${m.xCount === 1 ? '' : 's'}, oldest to newest`,
              position: 'insideBottom',
              offset: -8,
              className: 'axis-label',
            }}
          />
          <YAxis
            domain={['auto', 'auto']}
            tick={{ className: 'axis-label' }}
            width={52}
            allowDecimals={false}
          />
          {m.lines.map((l, i) => {
            const color = PALETTE[i % PALETTE.length];
            return (
              <Line
                key={l.identity}
                dataKey={l.identity}
                name={l.name}
                stroke={color}
                strokeWidth={2.5}
                connectNulls
                isAnimationActive={false}
                activeDot={false}
                dot={(d: DotProps) => {
                  const label = d.payload ? l.labels[d.payload.x] : undefined;
                  // The start point (the rating brought to the first match) has no dot.
                  if (!label || d.cx === undefined || d.cy === undefined) return <g key={`s${d.index}`} />;
                  return (
                    <circle key={label} cx={d.cx} cy={d.cy} r={4} fill={color} className="dot">
                      <title>{label}</title>
                    </circle>
                  );
                }}
              />
            );
          })}
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="legend">
        {m.lines.map((l, i) => (
          <span key={l.identity} className="legend-item" data-identity={l.identity}>
            <span className="swatch" style={{ background: PALETTE[i % PALETTE.length] }} aria-hidden="true" />
            {l.name}
            {l.last !== null ? <span className="mono muted small"> {Math.round(l.last)}</span> : null}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
