import { describe, expect, it } from 'vitest';
import {
  audienceOf,
  buildLayout,
  mergePlans,
  readySeats,
  readyTasks,
  type SeatSpec,
  seenBy,
  selectLeader,
  selectStyle,
  settleTasks,
  taskReady,
} from '../../rules/index.ts';

const seat = (id: string, score: number, role: SeatSpec['role'] = 'proposer'): SeatSpec => ({
  id,
  role,
  score,
  provider: 'scripted',
  model: 'm',
  specialization: null,
});
const SEATS = [
  seat('a', 7),
  seat('b', 9),
  seat('c', 8),
  seat('d', 8),
  seat('e', 5, 'moderator'),
  seat('f', 4),
];
const LOTTERY = ['d', 'f', 'a', 'c', 'e', 'b'];

describe('layouts', () => {
  it('the leader is the highest score; equal scores follow the lottery', () => {
    expect(selectLeader(SEATS, LOTTERY)).toBe('b');
    expect(buildLayout('chain', SEATS, LOTTERY, 2).order).toEqual(['b', 'd', 'c', 'a', 'e', 'f']);
    expect(selectLeader([seat('x', 5), seat('y', 5)], ['y', 'x'])).toBe('y');
  });

  it('graph_mesh: everyone sees everyone, everyone may speak at once', () => {
    const l = buildLayout('graph_mesh', SEATS, LOTTERY, 2);
    expect(seenBy(l, 'a').sort()).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(readySeats(l, l.order, new Set(), 8)).toEqual(l.order);
    expect(readySeats(l, l.order, new Set(), 2)).toEqual(['b', 'd']);
  });

  it('star: the moderator is the hub; spokes see only it and speak first, the hub last', () => {
    const l = buildLayout('star', SEATS, LOTTERY, 2);
    expect(l.hub).toBe('e');
    expect(seenBy(l, 'a')).toEqual(['e']);
    expect(seenBy(l, 'e').sort()).toEqual(['a', 'b', 'c', 'd', 'f']);
    expect(audienceOf(l, 'a')).toEqual(['e']);
    expect(readySeats(l, l.order, new Set(), 8)).toEqual(['b', 'd', 'c', 'a', 'f']);
    expect(readySeats(l, l.order, new Set(['a', 'b', 'c', 'd', 'f']), 8)).toEqual(['e']);
    // Without a moderator the leader is the hub.
    expect(
      buildLayout(
        'star',
        SEATS.filter((s) => s.id !== 'e'),
        LOTTERY,
        2,
      ).hub,
    ).toBe('b');
  });

  it('chain: each sees only its predecessor; one speaks at a time', () => {
    const l = buildLayout('chain', SEATS, LOTTERY, 2);
    expect(seenBy(l, 'b')).toEqual([]);
    expect(seenBy(l, 'c')).toEqual(['d']);
    expect(audienceOf(l, 'c')).toEqual(['a']);
    expect(readySeats(l, l.order, new Set(), 8)).toEqual(['b']);
    expect(readySeats(l, l.order, new Set(['b', 'd']), 8)).toEqual(['c']);
    // A seat outside the step does not hold the chain up.
    expect(readySeats(l, ['b', 'c'], new Set(['b']), 8)).toEqual(['c']);
  });

  it('tree: parent and children; a seat speaks after its parent, subtrees in parallel', () => {
    const l = buildLayout('tree', SEATS, LOTTERY, 2);
    // order b d c a e f → b: d, c; d: a, e; c: f
    expect(l.parent).toEqual({ b: null, d: 'b', c: 'b', a: 'd', e: 'd', f: 'c' });
    expect(seenBy(l, 'd')).toEqual(['b', 'a', 'e']);
    expect(seenBy(l, 'f')).toEqual(['c']);
    expect(readySeats(l, l.order, new Set(), 8)).toEqual(['b']);
    expect(readySeats(l, l.order, new Set(['b']), 8)).toEqual(['d', 'c']);
    expect(readySeats(l, l.order, new Set(['b', 'c']), 8)).toEqual(['d', 'f']);
    // Participants skip a missing ancestor: with d out of the step, a waits for b.
    expect(readySeats(l, ['b', 'a'], new Set(['b']), 8)).toEqual(['a']);
  });

  it('forfeit rebalancing is a new layout over the remaining seats', () => {
    const l = buildLayout(
      'chain',
      SEATS.filter((s) => s.id !== 'b'),
      LOTTERY,
      2,
    );
    expect(l.leader).toBe('d');
    expect(seenBy(l, 'c')).toEqual(['d']);
  });
});

describe('coordination', () => {
  it('adaptive follows upstream thresholds', () => {
    expect(selectStyle({ complexity: 0.8, ambiguity: 0.2, seats: 12 })).toBe('cpde');
    expect(selectStyle({ complexity: 0.5, ambiguity: 0.7, seats: 2 })).toBe('dpde');
    expect(selectStyle({ complexity: 0.5, ambiguity: 0.5, seats: 3 })).toBe('cpde');
    expect(selectStyle({ complexity: 0.5, ambiguity: 0.5, seats: 9 })).toBe('dpde');
    expect(selectStyle({ complexity: 0.5, ambiguity: 0.5, seats: 6 })).toBe('cpde');
  });

  it('dpde merge: namespaced ids, bare deps resolve to the author, cycles and unknown targets dropped', () => {
    const p = mergePlans('dpde', [
      {
        author: 'a',
        tasks: [{ id: 'x', description: 'ax', assignee: null, dependsOn: ['b/y'], priority: 0 }],
      },
      {
        author: 'b',
        tasks: [
          { id: 'y', description: 'by', assignee: null, dependsOn: ['a/x', 'nope/z'], priority: 0 },
          { id: 'z', description: 'bz', assignee: null, dependsOn: ['y'], priority: 5 },
        ],
      },
    ]);
    expect(p.tasks.map((t) => [t.id, t.assignee, t.dependsOn])).toEqual([
      ['a/x', 'a', ['b/y']],
      ['b/y', 'b', []],
      ['b/z', 'b', ['b/y']],
    ]);
    expect(p.dropped).toEqual(['b/y->a/x', 'b/y->nope/z']);
    expect(readyTasks(p).map((t) => t.id)).toEqual(['b/y']);
    expect(taskReady(p, 'a')).toBe(false);
    const after = settleTasks(p, ['b/y'], 'done', 7);
    expect(readyTasks(after).map((t) => t.id)).toEqual(['b/z', 'a/x']);
    expect(taskReady(after, 'a')).toBe(true);
  });

  it('a failed task unblocks its dependents', () => {
    const p = mergePlans('cpde', [
      {
        author: 'a',
        tasks: [
          { id: 't0', description: 'd', assignee: 'a', dependsOn: [], priority: 0 },
          { id: 't1', description: 'e', assignee: 'b', dependsOn: ['t0'], priority: 0 },
        ],
      },
    ]);
    expect(readyTasks(settleTasks(p, ['t0'], 'failed', 3)).map((t) => t.id)).toEqual(['t1']);
  });
});
