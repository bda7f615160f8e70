import { canonicalize } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Layout, type LegalAction, ROLES } from '../../rules/index.ts';
import { configFor, drive, Room } from './harness.ts';

/**
 * No seat's view ever contains what its topology hides. The oracle is written here from the spec
 * (mesh: all; star: a spoke sees the hub, the hub all; chain: the predecessor; tree: parent and
 * children), applied to the layout in force when each turn was made (forfeits rebalance it).
 */
function oracleSees(l: Layout, viewer: string, author: string): boolean {
  if (viewer === author) return true;
  const i = l.order.indexOf(viewer);
  if (i < 0 || !l.order.includes(author)) return false;
  if (l.kind === 'graph_mesh') return true;
  if (l.kind === 'star') return viewer === l.hub || author === l.hub;
  if (l.kind === 'chain') return l.order[i - 1] === author;
  return l.parent[viewer] === author || l.parent[author] === viewer;
}

const seatsArb = fc
  .array(fc.record({ role: fc.constantFrom(...ROLES), score: fc.integer({ min: 0, max: 10 }) }), {
    minLength: 3,
    maxLength: 7,
  })
  .map((xs) => xs.map((x, i) => ({ id: `s${i}`, ...x })));

const caseArb = fc.record({
  seats: seatsArb,
  topology: fc.constantFrom('graph_mesh', 'star', 'chain', 'tree'),
  coordination: fc.constantFrom('cpde', 'dpde', 'adaptive'),
  voting: fc.constantFrom('weighted', 'majority', 'plurality', 'borda', 'condorcet', 'unanimous'),
  branching: fc.integer({ min: 1, max: 3 }),
  failEvery: fc.integer({ min: 3, max: 11 }),
  forfeit: fc.option(
    fc.record({
      seat: fc.integer({ min: 0, max: 6 }),
      phase: fc.constantFrom('critique', 'review', 'convergence'),
    }),
  ),
  seed: fc.constantFrom('ab'.repeat(32), 'cd'.repeat(32), '01'.repeat(32)),
});

describe('topology secrecy (property)', () => {
  it('a debater view never holds a turn, code, summary or dissent its topology hides', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const room = new Room(
          configFor(
            {
              topology: c.topology,
              coordination: c.coordination,
              voting: c.voting,
              treeBranching: c.branching,
            },
            c.seats,
          ),
          c.seed,
        );
        // The layout in force for each upcoming turn, by the marker its text carries.
        const layoutAt = new Map<string, Layout>();
        let n = 0;
        const marker = (seat: string) => `mk${n}x${seat}q`;
        const check = () => {
          for (const s of c.seats) {
            const seen = canonicalize(room.view({ kind: 'seat', seat: s.id }));
            for (const [m, layout] of layoutAt) {
              const author = m.slice(m.indexOf('x') + 1, -1);
              if (!oracleSees(layout, s.id, author))
                expect(seen.includes(m), `${s.id} sees ${m}`).toBe(false);
            }
            // legal() offers only candidates whose proposal is in the seat's (checked) view.
            const view = room.view({ kind: 'seat', seat: s.id });
            for (const a of room.legal(s.id).actions as LegalAction[])
              if ('candidates' in a)
                for (const x of a.candidates)
                  expect(
                    view.turns.some(
                      (t) => t.seat === x && t.round === view.round && t.action.type === 'propose',
                    ),
                  ).toBe(true);
          }
        };
        const forfeit =
          c.forfeit && c.forfeit.seat < c.seats.length
            ? { seat: `s${c.forfeit.seat}`, round: 1, phase: c.forfeit.phase }
            : undefined;
        drive(room, {
          forfeit,
          text: (x) => (x.kind === 'plan' ? 'plan' : `${marker(x.seat)} ${x.kind}`),
          code: (x) => ({ language: 'ts', source: `// ${marker(x.seat)}\n` }),
          fail: () => ++n % c.failEvery === 0,
          before: (r, seat) => {
            // `n` is bumped by `fail` before the text is written: register the marker that turn uses.
            layoutAt.set(`mk${n + 1}x${seat}q`, r.state.layout);
            // Checked while the session runs (every turn is public once it ends).
            if (n % 25 === 0 || r.state.phase === 'convergence') check();
          },
        });
        expect(room.closed).toBe(true);
        // Once over, the end entry has revealed every turn (audience.ts): every view holds them all.
        for (const s of c.seats)
          expect(room.view({ kind: 'seat', seat: s.id }).turns).toHaveLength(room.state.turns.length);
      }),
      { numRuns: 25 },
    );
  });
});
