import { describe, expect, it } from 'vitest';
import { SILENT_TIMEOUTS } from '../../rules/transitions.ts';
import { configFor, drive, Room, SIX } from './harness.ts';

const FOUR = SIX.slice(0, 4); // ana (hub: the leader), ben, cai, dee
const timeouts = (room: Room, seat: string) =>
  room.state.turns.filter(
    (t) => t.seat === seat && t.action.type === 'failed' && t.action.error.code === 'PHASE_TIMEOUT',
  );

describe('a silent seat', () => {
  it('a timeout fails only the seats whose turn it was; the hub gets a fresh deadline', () => {
    const room = new Room(configFor({ topology: 'star' }, FOUR));
    // The spokes but dee answer; the hub waits for dee.
    while (room.view({ kind: 'admin' }).waitingFor.some((id) => id !== 'dee'))
      drive(room, { maxSteps: 1, silent: ['dee'] });
    expect(room.view({ kind: 'admin' }).waitingFor).toEqual(['dee']);
    const tick = room.advance()!;
    const s = room.state;
    expect(s.turns.filter((t) => t.action.type === 'failed').map((t) => t.seat)).toEqual(['dee']);
    expect(s.active).toContain('dee'); // one timeout is not yet silence
    expect(room.view({ kind: 'admin' }).waitingFor).toEqual(['ana']);
    expect(s.stepDeadline).toBe(room.lastTs + s.config.phaseTimeoutMs);
    expect(tick.state.status).toBe('running');
  });

  it(`a 4-seat star with one silent spoke completes: ${SILENT_TIMEOUTS} timeouts in a row rebalance it out`, () => {
    const room = new Room(configFor({ topology: 'star' }, FOUR));
    drive(room, { silent: ['dee'] });
    const s = room.state;
    expect(s.failure).toBeNull();
    expect(s.status).toBe('completed');
    expect(s.outcome?.winner).toBe('ana');
    expect(timeouts(room, 'ana')).toHaveLength(0);
    expect(timeouts(room, 'dee')).toHaveLength(SILENT_TIMEOUTS);
    expect(s.forfeits).toMatchObject([
      { seat: 'dee', reason: `silent: ${SILENT_TIMEOUTS} timeouts in a row` },
    ]);
    expect(s.active).toEqual(['ana', 'ben', 'cai']);
    expect(s.layout).toMatchObject({ hub: 'ana', order: ['ana', 'ben', 'cai'] });
  });

  it('a silent hub is rebalanced out too: a new hub, and the spokes finish', () => {
    const room = new Room(configFor({ topology: 'star' }, FOUR));
    drive(room, { silent: ['ana'] });
    const s = room.state;
    expect(s.status).toBe('completed');
    expect(s.forfeits.map((f) => f.seat)).toEqual(['ana']);
    expect(s.layout.hub).toBe('ben');
    for (const seat of ['ben', 'cai', 'dee']) expect(timeouts(room, seat)).toHaveLength(0);
  });
});
