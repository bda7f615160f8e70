import type { SeatSpec, Topology } from './config.ts';

/**
 * Topologies decide who sees whom and who speaks when. Upstream computes a topology and then
 * shows every agent everything; here the layout is what `view()` and `legal()` obey:
 *   graph_mesh  everyone sees everyone; everyone may speak at once.
 *   star        the hub (a moderator, else the leader) sees everyone; a spoke sees only the hub.
 *               Spokes speak in parallel, the hub last (it gathers the spokes).
 *   chain       each seat sees only its predecessor; one speaks at a time, in chain order.
 *   tree        each seat sees its parent and its children; a seat speaks once its parent has,
 *               so sibling subtrees proceed in parallel.
 */

export interface Layout {
  kind: Topology;
  /** Active seats: the leader first, then by score (desc), then by the room's lottery. */
  order: string[];
  leader: string;
  /** Star only: the centre. */
  hub: string | null;
  /** Tree only: each seat's parent (the root's is null). */
  parent: Record<string, string | null>;
}

/** Rank seats: higher score first; equal scores by their place in the seeded lottery. */
export function rankSeats(seats: readonly SeatSpec[], lottery: readonly string[]): SeatSpec[] {
  const place = (id: string) => lottery.indexOf(id);
  return [...seats].sort((a, b) => b.score - a.score || place(a.id) - place(b.id));
}

/** Upstream's leader: the highest-scoring active seat (ties: the room's lottery). */
export function selectLeader(seats: readonly SeatSpec[], lottery: readonly string[]): string | null {
  return rankSeats(seats, lottery)[0]?.id ?? null;
}

/** Lay the active seats out; called at setup and again whenever a seat forfeits (rebalance). */
export function buildLayout(
  kind: Topology,
  active: readonly SeatSpec[],
  lottery: readonly string[],
  branching: number,
): Layout {
  const ranked = rankSeats(active, lottery);
  const leader = ranked[0]?.id ?? '';
  let order = ranked.map((s) => s.id);
  let hub: string | null = null;
  if (kind === 'star') {
    hub = ranked.find((s) => s.role === 'moderator')?.id ?? leader;
    order = [hub, ...order.filter((id) => id !== hub)];
  }
  const parent: Record<string, string | null> = {};
  if (kind === 'tree') {
    // Breadth-first fill: seat i's children are i·k+1 … i·k+k.
    order.forEach((id, i) => {
      parent[id] = i === 0 ? null : (order[Math.floor((i - 1) / branching)] ?? null);
    });
  }
  return { kind, order, leader, hub, parent };
}

/** The seats whose turns `viewer` may read (besides its own). */
export function seenBy(layout: Layout, viewer: string): string[] {
  const { order } = layout;
  if (!order.includes(viewer)) return [];
  switch (layout.kind) {
    case 'graph_mesh':
      return order.filter((id) => id !== viewer);
    case 'star':
      return viewer === layout.hub ? order.filter((id) => id !== viewer) : layout.hub ? [layout.hub] : [];
    case 'chain': {
      const i = order.indexOf(viewer);
      return i > 0 ? [order[i - 1]!] : [];
    }
    case 'tree': {
      const up = layout.parent[viewer];
      const down = order.filter((id) => layout.parent[id] === viewer);
      return [...(up ? [up] : []), ...down];
    }
  }
}

/** Who may read a turn `author` makes now: every active seat that sees the author. */
export function audienceOf(layout: Layout, author: string): string[] {
  return layout.order.filter((id) => id !== author && seenBy(layout, id).includes(author));
}

/** May `seat` speak now in a step whose participants are `participants` and who has `acted`? */
export function topologyReady(
  layout: Layout,
  participants: readonly string[],
  acted: ReadonlySet<string>,
  seat: string,
): boolean {
  const inStep = layout.order.filter((id) => participants.includes(id));
  switch (layout.kind) {
    case 'graph_mesh':
      return true;
    case 'star':
      // The hub gathers: it speaks once every spoke of the step has.
      return seat !== layout.hub || inStep.every((id) => id === seat || acted.has(id));
    case 'chain':
      return inStep.slice(0, inStep.indexOf(seat)).every((id) => acted.has(id));
    case 'tree': {
      // Wait for the nearest ancestor that takes part in this step.
      let up = layout.parent[seat] ?? null;
      while (up && !participants.includes(up)) up = layout.parent[up] ?? null;
      return up === null || acted.has(up);
    }
  }
}

/**
 * The seats that hold the turn now: participants still to act whose topology lets them, narrowed
 * by `prefer` (e.g. seats whose planned tasks are ready) unless that would leave nobody, in layout
 * order, at most `maxParallelism` of them.
 */
export function readySeats(
  layout: Layout,
  participants: readonly string[],
  acted: ReadonlySet<string>,
  maxParallelism: number,
  prefer: (seat: string) => boolean = () => true,
): string[] {
  const open = layout.order.filter(
    (id) => participants.includes(id) && !acted.has(id) && topologyReady(layout, participants, acted, id),
  );
  const preferred = open.filter(prefer);
  return (preferred.length > 0 ? preferred : open).slice(0, maxParallelism);
}
