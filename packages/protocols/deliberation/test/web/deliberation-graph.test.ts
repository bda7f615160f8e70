import { describe, expect, it } from 'vitest';
import { seenBy } from '../../rules/index.ts';
import * as server from '../../server/storage/lessons-extract.ts';
import { trendPoints } from '../../web/CodeVersions.tsx';
import { graphOf, topologyEdges } from '../../web/graph.ts';
import { LESSON_CATEGORIES, TIERS } from '../../web/LessonsPage.tsx';
import { configFor, drive, Room } from '../rules/harness.ts';

// The deliberation room's "who spoke to whom" graph, computed from real scripted runs of the pure
// protocol: one node per seat, exactly the topology's links, weights that are the turns crossing
// each link — and, from a seat's own view, only the turns that seat may read.

const TOPOLOGIES = ['graph_mesh', 'star', 'chain', 'tree'] as const;

describe('deliberation topology graph', () => {
  for (const topology of TOPOLOGIES)
    it(`${topology}: nodes, links and weights follow the run`, () => {
      const room = new Room(configFor({ topology, coordination: 'cpde', maxRounds: 2 }));
      drive(room);
      const view = room.view({ kind: 'admin' });
      const g = graphOf(view);
      const n = view.config.seats.length;
      expect(g.nodes.map((x) => x.id).sort()).toEqual(view.config.seats.map((s) => s.id).sort());
      // The topology's links, checked against who sees whom rather than a count per kind.
      const linked = new Set<string>();
      for (const a of view.layout.order)
        for (const b of seenBy(view.layout, a)) linked.add([a, b].sort().join('|'));
      expect(new Set(g.edges.map((e) => [e.a, e.b].sort().join('|')))).toEqual(linked);
      expect(g.edges.length).toBe(topology === 'graph_mesh' ? (n * (n - 1)) / 2 : n - 1);
      expect(g.edges.every((e) => e.structural)).toBe(true);
      expect(topologyEdges(view.layout).length).toBe(g.edges.length);
      // Direction: a chain hands each seat's turn to the next and no further back; every other
      // topology's links carry turns both ways. The turns agree: nothing crossed a link backwards.
      const o = view.layout.order;
      for (const e of g.edges) {
        if (topology === 'chain') {
          expect(e.flow).toBe('ab');
          expect(o.indexOf(e.b)).toBe(o.indexOf(e.a) + 1);
          expect(e.ba).toBe(0);
          expect(e.ab).toBeGreaterThan(0);
        } else expect(e.flow).toBe('both');
      }
      // Weights: every (author, reader) pair of every turn, counted once, on its link.
      let reads = 0;
      for (const t of view.turns) reads += t.audience.length;
      expect(g.edges.reduce((s, e) => s + e.ab + e.ba, 0)).toBe(reads);
      expect(reads).toBeGreaterThan(0);
      for (const e of g.edges) {
        const ab = view.turns.filter((t) => t.seat === e.a && t.audience.includes(e.b)).length;
        expect(e.ab).toBe(ab);
      }
      for (const node of g.nodes)
        expect(node.turns).toBe(view.turns.filter((t) => t.seat === node.id).length);
      expect(g.nodes.filter((x) => x.leader).map((x) => x.id)).toEqual([view.layout.leader]);
      // Inside the box.
      for (const x of g.nodes) {
        expect(x.x).toBeGreaterThan(0);
        expect(x.x).toBeLessThan(480);
        expect(x.y).toBeGreaterThan(0);
        expect(x.y).toBeLessThan(300);
      }
    });

  it("from a chain seat's view, only links it may read carry weight", () => {
    // Mid-run: once the session ends its log reveals every turn, and every view shows them all.
    const room = new Room(configFor({ topology: 'chain', coordination: 'cpde', maxRounds: 1 }));
    drive(room, { maxSteps: 40 });
    expect(room.closed).toBe(false);
    const seat = room.state.layout.order[2]!;
    const mine = room.view({ kind: 'seat', seat });
    const g = graphOf(mine);
    // Reads all involve the seat (its predecessor's turns, and its own read by its successor); a
    // turn it read may still address a third seat, so `addressed` can sit elsewhere.
    const weighted = g.edges.filter((e) => e.ab + e.ba > 0);
    expect(weighted.length).toBeGreaterThan(0);
    for (const e of weighted) expect([e.a, e.b]).toContain(seat);
    for (const e of g.edges.filter((x) => x.addressed > 0 && ![x.a, x.b].includes(seat)))
      expect(mine.turns.some((t) => [e.a, e.b].includes(t.seat))).toBe(true);
    // The admin sees more.
    const all = graphOf(room.view({ kind: 'admin' }));
    expect(all.edges.filter((e) => e.ab + e.ba > 0).length).toBeGreaterThan(weighted.length);
  });

  it('a link from an earlier layout points the way its turns went', () => {
    const room = new Room(configFor({ topology: 'chain', coordination: 'cpde', maxRounds: 1 }));
    drive(room, { forfeit: { seat: 'ben', round: 1, phase: 'critique' } });
    const view = room.view({ kind: 'admin' });
    const g = graphOf(view);
    const old = g.edges.filter((e) => !e.structural && e.ab + e.ba > 0);
    expect(old.length).toBeGreaterThan(0);
    for (const e of old) expect(e.flow).toBe(e.ab > 0 && e.ba > 0 ? 'both' : e.ab > 0 ? 'ab' : 'ba');
    expect(old.some((e) => e.flow !== 'both')).toBe(true);
  });

  it('a forfeited seat stays on the graph, dimmed, with the turns it made', () => {
    const room = new Room(configFor({ topology: 'star', coordination: 'cpde', maxRounds: 1 }));
    drive(room, { forfeit: { seat: 'ben', round: 1, phase: 'critique' } });
    const g = graphOf(room.view({ kind: 'admin' }));
    const ben = g.nodes.find((x) => x.id === 'ben')!;
    expect(ben.active).toBe(false);
    expect(ben.turns).toBeGreaterThan(0);
    expect(g.nodes.length).toBe(6);
  });

  it('the pass-rate trend skips unmeasured versions and rises with the rate', () => {
    const v = (version: number, rate: number | null) =>
      ({ version, testPassRate: rate }) as Parameters<typeof trendPoints>[0][number];
    const pts = trendPoints([v(1, 0.5), v(2, null), v(3, 1)]);
    expect(pts.map((p) => p.version)).toEqual([1, 3]);
    expect(pts[1]!.y).toBeLessThan(pts[0]!.y);
  });

  it("the lessons page's filters are the server's", () => {
    expect([...LESSON_CATEGORIES]).toEqual([...server.LESSON_CATEGORIES]);
    expect([...TIERS]).toEqual([...server.TIERS]);
  });
});
