import { useEffect, useState } from 'react';
import { chartModel, type Series } from './chart.ts';

// Rating history as an inline SVG line chart (no chart library): one line per identity across the
// debates it was rated in, a dot per debate with its change as a tooltip, and a legend.

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

const PHONE = '(max-width: 600px)';

/** A phone draws a narrower chart: scaled to its screen, a 960-unit one has 4-pixel labels. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => typeof matchMedia === 'function' && matchMedia(PHONE).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const q = matchMedia(PHONE);
    const on = () => setPhone(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return phone;
}

export function RatingChart(props: { series: Series[]; title: string }) {
  const phone = usePhone();
  const m = phone ? chartModel(props.series, 420, 300) : chartModel(props.series);
  const { plot } = m;
  return (
    <figure className="rating-chart" data-testid="rating-chart">
      <svg
        viewBox={`0 0 ${m.width} ${m.height}`}
        role="img"
        aria-label={props.title}
        preserveAspectRatio="xMidYMid meet"
      >
        {m.yTicks.map((t) => (
          <g key={t.value} className="tick">
            <line x1={plot.left} x2={plot.right} y1={t.y} y2={t.y} className="grid" />
            <text x={plot.left - 8} y={t.y + 4} textAnchor="end" className="axis-label">
              {t.value}
            </text>
          </g>
        ))}
        <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} className="axis" />
        <text x={(plot.left + plot.right) / 2} y={m.height - 6} textAnchor="middle" className="axis-label">
          {m.xCount} rated debate{m.xCount === 1 ? '' : 's'}, oldest to newest
        </text>
        {m.lines.map((l, i) => {
          const color = PALETTE[i % PALETTE.length];
          return (
            <g key={l.identity} data-identity={l.identity}>
              <path d={l.path} fill="none" stroke={color} strokeWidth={2.5} strokeLinejoin="round" />
              {l.dots.map((d) => (
                <circle key={d.label} cx={d.x} cy={d.y} r={4} fill={color} className="dot">
                  <title>{d.label}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {m.lines.map((l, i) => (
          <span key={l.identity} className="legend-item">
            <span className="swatch" style={{ background: PALETTE[i % PALETTE.length] }} aria-hidden="true" />
            {l.name}
            {l.last ? <span className="mono muted small"> {Math.round(l.last.value)}</span> : null}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
