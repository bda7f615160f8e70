import type { DeliberationView } from '../rules/index.ts';
import { GRAPH_H, GRAPH_W, type GraphEdge, graphOf } from './graph.ts';

// Who spoke to whom: the seats laid out by their topology, each edge as thick as the turns that
// crossed it (seen or addressed), with an arrowhead where turns pass one way only (a chain hands
// each seat's turn to the next). Counts are of the turns this viewer may read.

const total = (e: GraphEdge) => e.ab + e.ba + e.addressed;
const radius = (n: { hub: boolean; leader: boolean }) => (n.hub || n.leader ? 18 : 14);
/** Room around the layout box for the labels under the nodes at its edges. */
const PAD_X = 40;
const PAD_Y = 34;
/** One id per page is enough: the marker is the same wherever a graph is drawn. */
const ARROW = 'delib-arrow';

/** The segment between two nodes' rims, so an arrowhead lands on the circle rather than under it. */
function rimToRim(
  from: { x: number; y: number; hub: boolean; leader: boolean },
  to: { x: number; y: number; hub: boolean; leader: boolean },
) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const s = (radius(from) + 2) / len;
  const t = (radius(to) + 3) / len;
  return { x1: from.x + dx * s, y1: from.y + dy * s, x2: to.x - dx * t, y2: to.y - dy * t };
}

export function TopologyGraph({ view }: { view: DeliberationView }) {
  const g = graphOf(view);
  const max = Math.max(1, ...g.edges.map(total));
  const pos = new Map(g.nodes.map((n) => [n.id, n]));
  const busiest = g.edges
    .flatMap((e) => [
      { from: e.a, to: e.b, n: e.ab },
      { from: e.b, to: e.a, n: e.ba },
    ])
    .filter((d) => d.n > 0)
    .sort((x, y) => y.n - x.n || x.from.localeCompare(y.from) || x.to.localeCompare(y.to))
    .slice(0, 6);
  return (
    <section className="card" aria-label="topology">
      <h2>
        Topology: {view.layout.kind.replace('_', ' ')}
        {view.layout.hub ? <span className="muted small"> · hub {view.layout.hub}</span> : null}
      </h2>
      <svg
        className="delib-graph"
        data-testid="delib-graph"
        data-kind={view.layout.kind}
        viewBox={`${-PAD_X} 0 ${GRAPH_W + 2 * PAD_X} ${GRAPH_H + PAD_Y}`}
        role="img"
        aria-label={`${view.layout.kind} of ${g.nodes.length} seats`}
      >
        <defs>
          {/* In user units, so a heavy edge does not get a huge head. */}
          <marker
            id={ARROW}
            viewBox="0 0 10 10"
            refX={10}
            refY={5}
            markerWidth={11}
            markerHeight={11}
            markerUnits="userSpaceOnUse"
            orient="auto"
          >
            <path className="edge-head" d="M0,0 L10,5 L0,10 z" />
          </marker>
        </defs>
        {g.edges.map((e) => {
          // A one-way link is drawn from the seat whose turns pass to the one that reads them.
          const [from, to] = e.flow === 'ba' ? [e.b, e.a] : [e.a, e.b];
          const w = total(e);
          return (
            <line
              key={`${e.a}-${e.b}`}
              data-testid="delib-edge"
              data-from={from}
              data-to={to}
              data-flow={e.flow === 'both' ? 'both' : 'one-way'}
              data-weight={w}
              className={`edge${e.structural ? '' : ' edge-old'}${w === 0 ? ' edge-idle' : ''}`}
              {...rimToRim(pos.get(from)!, pos.get(to)!)}
              markerEnd={e.flow === 'both' ? undefined : `url(#${ARROW})`}
              strokeWidth={1 + (5 * w) / max}
            >
              <title>
                {`${e.a} → ${e.b}: ${e.ab} seen · ${e.b} → ${e.a}: ${e.ba} seen · ${e.addressed} addressed${e.flow === 'both' ? '' : ` · turns pass ${from} → ${to} only`}`}
              </title>
            </line>
          );
        })}
        {g.nodes.map((n) => (
          <g
            key={n.id}
            data-testid="delib-node"
            data-seat={n.id}
            data-turns={n.turns}
            className={`node${n.active ? '' : ' node-gone'}${n.leader ? ' node-leader' : ''}`}
            transform={`translate(${n.x} ${n.y})`}
          >
            <title>{`${n.id} (${n.role}): ${n.turns} turns${n.leader ? ', leader' : ''}${n.active ? '' : ', forfeited'}`}</title>
            <circle r={radius(n)} />
            <text className="node-turns" y={4}>
              {n.turns}
            </text>
            {/* The whole id under the node (a halo keeps it readable over edges); the role below it. */}
            <text className="node-id" y={radius(n) + 13}>
              {n.id}
            </text>
            <text className="node-role" y={radius(n) + 25}>
              {n.role.replace('_', ' ')}
            </text>
          </g>
        ))}
      </svg>
      {g.edges.some((e) => e.flow !== 'both') ? (
        <p className="muted small" data-testid="delib-direction">
          Arrows show the way turns pass; a line without one passes both ways.
        </p>
      ) : null}
      {busiest.length > 0 ? (
        <p className="muted small" data-testid="delib-busiest">
          Most read:{' '}
          {busiest.map((d, i) => (
            <span key={`${d.from}-${d.to}`}>
              {i > 0 ? ', ' : ''}
              {d.from} → {d.to} {d.n}
            </span>
          ))}
        </p>
      ) : (
        <p className="muted small">No turns you may read yet.</p>
      )}
    </section>
  );
}
