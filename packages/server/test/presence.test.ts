import type { PresenceEvent, RoomEvent } from '@db8/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PresenceRegistry, TYPING_MIN_GAP_MS, TYPING_TTL_MS } from '../src/realtime/presence.ts';
import { RoomTicker } from '../src/realtime/ticker.ts';

// Fake timers move setTimeout/setInterval and Date.now together: expiry is driven, never waited for.
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function watched(p: PresenceRegistry, roomId: string) {
  const seen: RoomEvent[] = [];
  const off = p.watch(roomId, (e) => seen.push(e));
  const presences = () => seen.filter((e): e is PresenceEvent => e.t === 'presence');
  return { seen, off, presences, last: () => presences().at(-1)! };
}

describe('presence', () => {
  it('counts a seat once across its sockets, and drops it with its last socket', () => {
    const p = new PresenceRegistry({ clock: Date.now });
    const w = watched(p, 'r1');
    const a1 = p.join('r1', 'anon_1');
    const a2 = p.join('r1', 'anon_1');
    const b = p.join('r1', 'anon_2');
    expect(w.last().who.map((x) => x.participant_id)).toEqual(['anon_1', 'anon_2']);
    expect(p.snapshot('r1').who[0]!.at).toBe(Math.floor(Date.now() / 1000));
    a1();
    a1(); // idempotent
    expect(p.snapshot('r1').who.map((x) => x.participant_id)).toEqual(['anon_1', 'anon_2']);
    a2();
    expect(w.last().who.map((x) => x.participant_id)).toEqual(['anon_2']);
    b();
    w.off();
    expect(p.size).toBe(0);
  });

  it('expires a typing signal after its time unless a fresh one comes; signals closer than the gap are dropped', () => {
    const p = new PresenceRegistry({ clock: Date.now });
    const w = watched(p, 'r1');
    p.join('r1', 'anon_1');
    expect(p.typing('r1', 'anon_1')).toBe(true);
    expect(w.last().typing).toEqual(['anon_1']);
    expect(w.seen.filter((e) => e.t === 'typing')).toEqual([
      {
        t: 'typing',
        room_id: 'r1',
        participant_id: 'anon_1',
        until_unix: Math.ceil((Date.now() + TYPING_TTL_MS) / 1000),
      },
    ]);
    // Too soon: dropped, and it does not extend the signal.
    expect(p.typing('r1', 'anon_1')).toBe(false);

    // Refreshed before it expires: still typing past the first signal's end.
    vi.advanceTimersByTime(TYPING_MIN_GAP_MS);
    expect(p.typing('r1', 'anon_1')).toBe(true);
    vi.advanceTimersByTime(TYPING_TTL_MS - TYPING_MIN_GAP_MS);
    expect(p.snapshot('r1').typing).toEqual(['anon_1']);
    expect(w.last().typing).toEqual(['anon_1']);

    // No fresh signal: it expires, and watchers are told.
    vi.advanceTimersByTime(TYPING_MIN_GAP_MS);
    expect(w.last().typing).toEqual([]);
    expect(p.snapshot('r1').typing).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses typing from a seat with no socket in the room', () => {
    const p = new PresenceRegistry({ clock: Date.now });
    expect(p.typing('r1', 'anon_9')).toBe(false);
    expect(p.size).toBe(0);
  });
});

describe('the 1-second ticker', () => {
  it('runs one interval per room whatever the number of watchers, and stops with the last', () => {
    const t = new RoomTicker(1000);
    const calls: string[] = [];
    const offs = [1, 2, 3].map((i) => t.watch('r1', () => calls.push(`r1:${i}`)));
    const offB = t.watch('r2', () => calls.push('r2'));
    expect(t.running).toBe(2);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(calls.sort()).toEqual(['r1:1', 'r1:2', 'r1:3', 'r2']);
    for (const off of offs) off();
    expect(t.running).toBe(1);
    offB();
    expect(t.running).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
