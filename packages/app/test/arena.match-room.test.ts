// The server's mirrored match room (packages/protocols/arena/server/match-room.ts): a game's body
// plays it as it plays core's LocalRoom, and every input reaches the server room in order, at the
// mirror's instants; a move the mirror refuses is never written; a driver told to stop writes nothing more.
import { ArenaConfigSchema, type Match } from '@db8/arena';
import { Aborted, MirroredMatchRoom } from '@db8/arena/server/match-room.ts';
import { LocalRoom } from '@db8/core';
import { AUCTIONEER, bidderSeat } from '@db8/sealed-bid';
import type { ModuleRuntime } from '@db8/server/kit';
import { describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';

const game = arenaGames['sealed-bid']!;
const arena = ArenaConfigSchema.parse({
  name: 'mirror',
  game: 'sealed-bid',
  format: { kind: 'round-robin', games: 1 },
  entrants: [
    { name: 'a', kind: 'scripted', strategy: 'truthful' },
    { name: 'b', kind: 'scripted', strategy: 'lowball' },
  ],
  seed: 'mirror',
});
const match: Match = { id: 'm1', round: 1, set: 'm1', entrants: ['a', 'b'], seed: 'ab'.repeat(32) };
const T0 = 1_700_000_000_000;

/** A server room stand-in: a LocalRoom that records what was written to it. */
function serverRoom() {
  const room = new LocalRoom({
    protocol: game.protocol,
    config: game.config(arena, match),
    seed: match.seed,
    now: T0,
  });
  const writes: Array<{ kind: string; seat?: string; now?: number }> = [];
  const runtime = {
    act: async (_id: string, input: { seat: string; action: unknown; now?: number }) => {
      writes.push({ kind: 'act', seat: input.seat, now: input.now });
      room.must(input.seat, input.action, input.now);
      return {};
    },
    tick: async (_id: string, now?: number) => {
      writes.push({ kind: 'tick', now });
      return room.tick(now)?.seq ?? null;
    },
  } as unknown as ModuleRuntime;
  return { room, writes, runtime };
}

const mirrored = (runtime: ModuleRuntime, live = () => true, clock = () => T0 + 5) =>
  new MirroredMatchRoom(runtime, 'r-m1', {
    protocol: game.protocol,
    config: game.config(arena, match),
    seed: match.seed,
    now: T0,
    clock,
    live,
  });

describe('the mirrored match room', () => {
  it('plays a game body unchanged; the server room ends where the mirror does', async () => {
    const s = serverRoom();
    const m = mirrored(s.runtime);
    await game.play(m, arena, match, () => m.flush());
    expect(s.writes).toEqual([]); // sealed-bid never pauses: nothing is written until the flush
    await m.flush();
    expect(s.room.closed).toBe(true);
    expect(m.closed).toBe(true);
    expect(game.placements(s.room.result(), match)).toEqual(game.placements(m.result(), match));
    // Bids, then the auction's ticks and confirmation, in the order the game made them.
    expect(s.writes.slice(0, 2).map((w) => w.seat)).toEqual([bidderSeat(1), bidderSeat(2)]);
    expect(s.writes.some((w) => w.kind === 'tick')).toBe(true);
    expect(s.writes.some((w) => w.seat === AUCTIONEER)).toBe(true);
    // Every write carries the mirror's instant, never earlier than the one before.
    const instants = s.writes.map((w) => w.now!);
    expect(instants.every((t, i) => i === 0 || t >= instants[i - 1]!)).toBe(true);
    expect(s.room.lastTs).toBe(instants.at(-1));
  });

  it('refuses a move on the spot and writes nothing of it', async () => {
    const s = serverRoom();
    const m = mirrored(s.runtime);
    expect(() => m.must(AUCTIONEER, { type: 'confirm' })).toThrow(/refused/);
    await m.flush();
    expect(s.writes).toEqual([]);
  });

  it('stops at the next write once its driver is no longer live', async () => {
    const s = serverRoom();
    let live = true;
    const m = mirrored(s.runtime, () => live);
    m.must(bidderSeat(1), { type: 'bid', amount: 10 });
    await m.flush();
    m.must(bidderSeat(2), { type: 'bid', amount: 20 });
    live = false;
    await expect(m.flush()).rejects.toBeInstanceOf(Aborted);
    expect(s.writes.map((w) => w.seat)).toEqual([bidderSeat(1)]);
  });
});
