import { entryPayload, redactEntry, refoldLog, type StoredEntry, type Viewer } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { deliberation, OPERATOR } from '../../rules/index.ts';
import { configFor, drive, Room, SIX } from './harness.ts';

/**
 * The log shows each viewer exactly the turns `view()` shows it (audience.ts): a turn's entry is
 * sealed to its author, its topology audience and the operator, and the entry that ends the
 * session reveals them all. Checked on the log itself, as every read path serves it.
 */

const TOPOLOGIES = ['graph_mesh', 'star', 'chain', 'tree'] as const;
const VIEWERS: Viewer[] = [
  ...SIX.map((s) => ({ kind: 'seat', seat: s.id }) as const),
  { kind: 'seat', seat: OPERATOR },
  { kind: 'observer' },
  { kind: 'admin' },
];
const label = (v: Viewer) => (v.kind === 'seat' ? v.seat : v.kind);

/** Seqs of the action entries whose payload `viewer` can read, in the entry or a later reveal. */
function readableActions(entries: readonly StoredEntry[], viewer: Viewer): number[] {
  const revealed = new Set(entries.flatMap((e) => (e.reveals ?? []).map((r) => r.seq)));
  return entries
    .map((e) => redactEntry(e, viewer))
    .filter((e) => e.kind === 'action' && (entryPayload(e) !== undefined || revealed.has(e.seq)))
    .map((e) => e.seq);
}

/** Seqs of the action entries that recorded a turn or measured one (tick-made timeouts excluded). */
function turnActions(room: Room): Set<number> {
  const kinds = new Set(room.entries.filter((e) => e.kind === 'action').map((e) => e.seq));
  return new Set(room.state.turns.map((t) => t.seq).filter((s) => kinds.has(s)));
}

const readableTurns = (room: Room, viewer: Viewer) =>
  readableActions(room.entries, viewer).filter((s) => turnActions(room).has(s)).length;

function expectLogMatchesView(room: Room): number {
  const turns = turnActions(room);
  let probes = 0;
  for (const viewer of VIEWERS) {
    const inView = room
      .view(viewer)
      .turns.map((t) => t.seq)
      .filter((s) => turns.has(s));
    const inLog = readableActions(room.entries, viewer).filter((s) => turns.has(s));
    expect(inLog, `${label(viewer)} reads exactly the turns its view shows`).toEqual(inView);
    probes++;
  }
  return probes;
}

describe('each turn is sealed to the seats its topology lets see it', () => {
  for (const topology of TOPOLOGIES)
    it(`${topology}: mid-run every viewer reads in the log exactly its view's turns; after the end, all`, () => {
      const room = new Room(configFor({ topology, coordination: 'cpde' }));
      drive(room, { maxSteps: 25 });
      expect(room.closed).toBe(false);
      expectLogMatchesView(room);
      // A spoke of a star (or a chain's first seat) must not read everything: the check has teeth.
      if (topology !== 'graph_mesh') {
        const some = readableActions(room.entries, { kind: 'seat', seat: room.state.layout.order.at(-1)! });
        expect(some.length).toBeLessThan(turnActions(room).size);
      }
      expect(readableActions(room.entries, { kind: 'observer' })).toEqual([]);
      drive(room);
      expect(room.state.status).toBe('completed');
      expectLogMatchesView(room);
      expect(readableTurns(room, { kind: 'observer' })).toBe(turnActions(room).size);
      // The public log alone (what a signed-out export holds) refolds to the same state.
      const pub = room.entries.map((e) => redactEntry(e, { kind: 'observer' }));
      const again = refoldLog(JSON.parse(JSON.stringify(pub)), new Map([['deliberation', deliberation]]));
      expect(again.problems).toEqual([]);
      expect(again.state).toEqual(room.state);
    });

  it('a measurement of a code version is sealed like the turn that proposed it', () => {
    const room = new Room(
      configFor({ topology: 'star', task: { kind: 'code', tests: 'test("t", () => {})' } }),
    );
    drive(room, { maxSteps: 14 });
    const version = room.state.codeVersions[0];
    expect(version).toBeDefined();
    const at = room.must(OPERATOR, {
      type: 'measure',
      version: version!.version,
      measurement: { qualityScore: 0.5, testPassRate: 1, metrics: {} },
    });
    const entry = room.entries.find((e) => e.seq === at.seq)!;
    const proposer = room.entries.find((e) => e.seq === version!.turnSeq)!;
    expect(entry.vis).toEqual(proposer.vis);
    expect(entry.vis.kind).not.toBe('public');
  });

  it('a star paused at a gate: a spoke reads no other spoke’s turn; rejecting it reveals them all', () => {
    const room = new Room(
      configFor({ topology: 'star', gates: { phases: ['critique'], reviewers: [OPERATOR] } }),
    );
    for (let i = 0; i < 200 && room.state.status === 'running'; i++) drive(room, { maxSteps: 1 });
    expect(room.state.status).toBe('paused');
    expectLogMatchesView(room);
    const { hub, order } = room.state.layout;
    const spoke = order.find((id) => id !== hub)!;
    const others = room.state.turns.filter((t) => t.seat !== spoke && t.seat !== hub).map((t) => t.seq);
    expect(others.length).toBeGreaterThan(0);
    const read = readableActions(room.entries, { kind: 'seat', seat: spoke });
    expect(read.filter((s) => others.includes(s))).toEqual([]);
    drive(room, { gate: 'reject' });
    expect(room.state.status).toBe('cancelled');
    expectLogMatchesView(room);
    expect(readableTurns(room, { kind: 'observer' })).toBe(turnActions(room).size);
  });
});
