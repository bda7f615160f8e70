// Geometry for the rating-history chart, kept apart from React so it is unit-tested. Matches are
// placed on x by their order across everyone shown (a shared axis of debates); y is the rating.

export type HistoryPoint = { match: string; at: number | null; before: number; after: number };
/** `name`: what the legend shows (the principal's display name), else the identity. */
export type Series = { identity: string; name?: string; points: HistoryPoint[] };

export type ChartModel = {
  width: number;
  height: number;
  /** Plot area in SVG units. */
  plot: { left: number; top: number; right: number; bottom: number };
  yTicks: { value: number; y: number }[];
  xCount: number;
  lines: {
    identity: string;
    name: string;
    path: string;
    dots: { x: number; y: number; label: string }[];
    last: { x: number; y: number; value: number } | null;
  }[];
};

/** 1, 2, 2.5 or 5 × 10^k: the tick step giving about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * mag;
}

/** Matches in the order they were rated: by time, then id (how the server folds them). */
export function matchOrder(series: readonly Series[]): string[] {
  const at = new Map<string, number>();
  for (const s of series) for (const p of s.points) if (!at.has(p.match)) at.set(p.match, p.at ?? 0);
  return [...at.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
}

const fmt = (n: number) => (Math.round(n * 100) / 100).toString();

export function chartModel(series: readonly Series[], width = 960, height = 300): ChartModel {
  const plot = { left: 52, top: 14, right: width - 16, bottom: height - 30 };
  const order = matchOrder(series);
  const xIndex = new Map(order.map((m, i) => [m, i + 1]));
  const xCount = order.length;
  const values = series.flatMap((s) => s.points.flatMap((p) => [p.before, p.after]));
  let lo = values.length ? Math.min(...values) : 1500;
  let hi = values.length ? Math.max(...values) : 1500;
  if (hi - lo < 20) {
    const mid = (hi + lo) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (i: number) => plot.left + ((plot.right - plot.left) * i) / Math.max(1, xCount);
  const y = (v: number) => plot.bottom - ((plot.bottom - plot.top) * (v - lo)) / (hi - lo);
  const yTicks: ChartModel['yTicks'] = [];
  for (let v = lo; v <= hi + step / 2; v += step) yTicks.push({ value: Math.round(v * 100) / 100, y: y(v) });

  const lines = series.map((s) => {
    const pts = [...s.points].sort((a, b) => (xIndex.get(a.match) ?? 0) - (xIndex.get(b.match) ?? 0));
    const first = pts[0];
    const name = s.name ?? s.identity;
    if (!first) return { identity: s.identity, name, path: '', dots: [], last: null };
    // The line starts just before its first match, at the rating it brought to it.
    const coords: [number, number][] = [[x((xIndex.get(first.match) ?? 1) - 1), y(first.before)]];
    const dots = pts.map((p) => {
      const px = x(xIndex.get(p.match) ?? 0);
      const py = y(p.after);
      coords.push([px, py]);
      const d = p.after - p.before;
      return {
        x: px,
        y: py,
        label: `${name}: ${fmt(p.after)} (${d >= 0 ? '+' : ''}${fmt(d)}) after ${p.match}`,
      };
    });
    const path = coords
      .map(([cx, cy], i) => `${i === 0 ? 'M' : 'L'}${cx.toFixed(1)},${cy.toFixed(1)}`)
      .join(' ');
    const lastP = pts.at(-1)!;
    const lastDot = dots.at(-1)!;
    return {
      identity: s.identity,
      name,
      path,
      dots,
      last: { x: lastDot.x, y: lastDot.y, value: lastP.after },
    };
  });
  return { width, height, plot, yTicks, xCount, lines };
}
