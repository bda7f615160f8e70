import { type DeliberationView, type Layout, seenBy } from '../rules/index.ts';

// The topology as a graph (pure, so a unit test can check it against a real run): a node per seat,
// an edge per pair the topology links, each weighted by the turns that crossed it — a turn of A is
// seen by B when B is in its audience (fixed by the topology when it was made), and addresses B
// when it targets or supports B. Only the turns the viewer may read count, so the graph never
// shows more than the view does.

export const GRAPH_W = 480;
export const GRAPH_H = 300;

export interface GraphNode {
  id: string;
  role: string;
  x: number;
  y: number;
  /** Turns this seat made (failed ones included: it held the turn). */
  turns: number;
  active: boolean;
  leader: boolean;
  hub: boolean;
}

export interface GraphEdge {
  /** `a` comes before `b` in the layout's order. */
  a: string;
  b: string;
  /** Turns of `a` that `b` could read, and the other way round. */
  ab: number;
  ba: number;
  /** Turns of either that target or support the other. */
  addressed: number;
  /** The current layout links the pair (else it carried turns under an earlier layout). */
  structural: boolean;
  /**
   * The way turns pass: `ab` when only `b` reads `a` (a chain passes each seat's turn to the next),
   * `both` when each reads the other (mesh, star's hub and spokes, tree). From the layout for a
   * structural link; from the turns that crossed it for an earlier one.
   */
  flow: Flow;
}

export type Flow = 'ab' | 'ba' | 'both';

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The pairs the topology links: every pair (mesh), hub–spoke (star), neighbours (chain), parent–child (tree). */
export function topologyEdges(layout: Layout): [string, string][] {
  const o = layout.order;
  switch (layout.kind) {
    case 'graph_mesh':
      return o.flatMap((a, i) => o.slice(i + 1).map((b): [string, string] => [a, b]));
    case 'star':
      return layout.hub
        ? o.filter((id) => id !== layout.hub).map((id): [string, string] => [layout.hub!, id])
        : [];
    case 'chain':
      return o.slice(1).map((id, i): [string, string] => [o[i]!, id]);
    case 'tree':
      return o.flatMap((id) => {
        const p = layout.parent[id];
        return p ? [[p, id] as [string, string]] : [];
      });
  }
}

function depthOf(layout: Layout, id: string): number {
  let d = 0;
  for (let p = layout.parent[id]; p && d < 64; p = layout.parent[p]) d++;
  return d;
}

/** Node positions in a GRAPH_W × GRAPH_H box, by the topology's shape. */
function place(layout: Layout): Map<string, { x: number; y: number }> {
  const o = layout.order;
  const at = new Map<string, { x: number; y: number }>();
  const cx = GRAPH_W / 2;
  const cy = (GRAPH_H - 40) / 2 + 10;
  const ring = (ids: string[], r: number) => {
    for (const [i, id] of ids.entries()) {
      const t = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, ids.length);
      at.set(id, { x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) * 0.85 });
    }
  };
  if (layout.kind === 'graph_mesh') ring(o, 110);
  else if (layout.kind === 'star' && layout.hub) {
    at.set(layout.hub, { x: cx, y: cy });
    ring(
      o.filter((id) => id !== layout.hub),
      115,
    );
  } else if (layout.kind === 'chain') {
    // A zigzag keeps six seats legible on a phone.
    const step = (GRAPH_W - 100) / Math.max(1, o.length - 1);
    for (const [i, id] of o.entries()) at.set(id, { x: 50 + i * step, y: i % 2 ? cy + 55 : cy - 55 });
  } else {
    const levels = new Map<number, string[]>();
    for (const id of o) levels.set(depthOf(layout, id), [...(levels.get(depthOf(layout, id)) ?? []), id]);
    const depth = Math.max(1, levels.size - 1);
    for (const [d, ids] of levels)
      for (const [i, id] of ids.entries())
        at.set(id, { x: ((i + 1) * GRAPH_W) / (ids.length + 1), y: 35 + (d * (GRAPH_H - 110)) / depth });
  }
  return at;
}

function flowOf(layout: Layout, e: GraphEdge): Flow {
  const [ab, ba] = e.structural
    ? [seenBy(layout, e.b).includes(e.a), seenBy(layout, e.a).includes(e.b)]
    : [e.ab > 0, e.ba > 0];
  return ab && !ba ? 'ab' : ba && !ab ? 'ba' : 'both';
}

const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

export function graphOf(view: Pick<DeliberationView, 'layout' | 'turns' | 'config' | 'active'>): Graph {
  const { layout } = view;
  const at = place(layout);
  // Seats that forfeited are no longer in the layout: a row along the bottom, dimmed.
  const gone = view.config.seats.filter((s) => !layout.order.includes(s.id));
  for (const [i, s] of gone.entries())
    at.set(s.id, { x: ((i + 1) * GRAPH_W) / (gone.length + 1), y: GRAPH_H - 22 });
  const rank = new Map(
    view.config.seats.map((s, i) => [
      s.id,
      layout.order.indexOf(s.id) >= 0 ? layout.order.indexOf(s.id) : 100 + i,
    ]),
  );
  const edges = new Map<string, GraphEdge>();
  const edge = (x: string, y: string, structural: boolean): GraphEdge => {
    const [a, b] = (rank.get(x) ?? 0) <= (rank.get(y) ?? 0) ? [x, y] : [y, x];
    const k = pairKey(a, b);
    let e = edges.get(k);
    if (!e) {
      e = { a, b, ab: 0, ba: 0, addressed: 0, structural, flow: 'both' };
      edges.set(k, e);
    }
    e.structural ||= structural;
    return e;
  };
  for (const [a, b] of topologyEdges(layout)) edge(a, b, true);
  const turns = new Map<string, number>();
  for (const t of view.turns) {
    turns.set(t.seat, (turns.get(t.seat) ?? 0) + 1);
    for (const to of t.audience) {
      if (!at.has(to)) continue;
      const e = edge(t.seat, to, false);
      if (e.a === t.seat) e.ab++;
      else e.ba++;
    }
    const act = t.action as { target?: string | null; support?: string | null };
    for (const to of new Set([act.target, act.support]))
      if (to && to !== t.seat && at.has(to)) edge(t.seat, to, false).addressed++;
  }
  for (const e of edges.values()) e.flow = flowOf(layout, e);
  const nodes = view.config.seats
    .filter((s) => at.has(s.id))
    .map((s) => ({
      id: s.id,
      role: s.role,
      ...at.get(s.id)!,
      turns: turns.get(s.id) ?? 0,
      active: view.active.includes(s.id),
      leader: layout.leader === s.id,
      hub: layout.hub === s.id,
    }));
  return { nodes, edges: [...edges.values()] };
}
