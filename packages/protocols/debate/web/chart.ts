// The rating-history chart's data, kept apart from React so it is unit-tested: recharts draws it
// (RatingChart.tsx). Matches are placed on x by their order across everyone shown (a shared axis
// of debates); y is the rating.

export type HistoryPoint = { match: string; at: number | null; before: number; after: number };
/** `name`: what the legend shows (the principal's display name), else the identity. */
export type Series = { identity: string; name?: string; points: HistoryPoint[] };

/** One x position: `x` is the debate's place on the axis, each identity's rating there (if rated). */
export type ChartRow = { x: number } & Record<string, number>;

export type ChartData = {
  rows: ChartRow[];
  xCount: number;
  lines: {
    identity: string;
    name: string;
    /** Tooltip per x where this identity was rated (the start point, before its first match, has none). */
    labels: Record<number, string>;
    last: number | null;
  }[];
};

/** Matches in the order they were rated: by time, then id (how the server folds them). */
export function matchOrder(series: readonly Series[]): string[] {
  const at = new Map<string, number>();
  for (const s of series) for (const p of s.points) if (!at.has(p.match)) at.set(p.match, p.at ?? 0);
  return [...at.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
}

const fmt = (n: number) => (Math.round(n * 100) / 100).toString();

export function chartData(series: readonly Series[]): ChartData {
  const order = matchOrder(series);
  const xIndex = new Map(order.map((m, i) => [m, i + 1]));
  const rows: ChartRow[] = Array.from({ length: order.length + 1 }, (_, x) => ({ x }) as ChartRow);
  const lines = series.map((s) => {
    const pts = [...s.points].sort((a, b) => (xIndex.get(a.match) ?? 0) - (xIndex.get(b.match) ?? 0));
    const name = s.name ?? s.identity;
    const labels: Record<number, string> = {};
    const first = pts[0];
    // The line starts just before its first match, at the rating it brought to it.
    if (first) rows[(xIndex.get(first.match) ?? 1) - 1]![s.identity] = first.before;
    for (const p of pts) {
      const x = xIndex.get(p.match) ?? 0;
      rows[x]![s.identity] = p.after;
      const d = p.after - p.before;
      labels[x] = `${name}: ${fmt(p.after)} (${d >= 0 ? '+' : ''}${fmt(d)}) after ${p.match}`;
    }
    return { identity: s.identity, name, labels, last: pts.at(-1)?.after ?? null };
  });
  return { rows, xCount: order.length, lines };
}
