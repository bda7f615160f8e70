import type { PublicEntry } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { LocalBus } from '../src/bus/local.ts';

const entry = (room: string, seq: number): PublicEntry => ({
  v: 1,
  room,
  seq,
  ts: 1_700_000_000_000 + seq,
  kind: 'action',
  actor: 'p1',
  vis: { kind: 'public' },
  payload: { n: seq },
});

describe('LocalBus', () => {
  it('delivers to room subscribers and wildcard subscribers, in publish order', async () => {
    const bus = new LocalBus();
    const a: number[] = [];
    const all: string[] = [];
    bus.subscribe('r1', (e) => a.push(e.seq));
    bus.subscribe('*', (e) => all.push(`${e.room}:${e.seq}`));
    for (let i = 0; i < 5; i++) await bus.publish('r1', entry('r1', i));
    await bus.publish('r2', entry('r2', 0));
    expect(a).toEqual([0, 1, 2, 3, 4]);
    expect(all).toEqual(['r1:0', 'r1:1', 'r1:2', 'r1:3', 'r1:4', 'r2:0']);
  });

  it('does not deliver other rooms and stops after unsubscribe', async () => {
    const bus = new LocalBus();
    const got: number[] = [];
    const off = bus.subscribe('r1', (e) => got.push(e.seq));
    await bus.publish('r2', entry('r2', 9));
    await bus.publish('r1', entry('r1', 1));
    off();
    off(); // idempotent
    await bus.publish('r1', entry('r1', 2));
    expect(got).toEqual([1]);
    expect(bus.size).toBe(0);
  });

  it('isolates a throwing subscriber and keeps double subscriptions independent', async () => {
    const bus = new LocalBus();
    const got: string[] = [];
    const fn = (e: PublicEntry) => got.push(`f${e.seq}`);
    bus.subscribe('r', () => {
      throw new Error('boom');
    });
    const off1 = bus.subscribe('r', fn);
    bus.subscribe('r', fn);
    await bus.publish('r', entry('r', 1));
    off1();
    await bus.publish('r', entry('r', 2));
    expect(got).toEqual(['f1', 'f1', 'f2']);
  });

  it('lets a handler unsubscribe a neighbour mid-dispatch without skipping it this round', async () => {
    const bus = new LocalBus();
    const got: string[] = [];
    let offB = () => {};
    bus.subscribe('r', () => {
      got.push('a');
      offB();
    });
    offB = bus.subscribe('r', () => got.push('b'));
    await bus.publish('r', entry('r', 1));
    await bus.publish('r', entry('r', 2));
    expect(got).toEqual(['a', 'b', 'a']);
  });

  it('refuses use after close', async () => {
    const bus = new LocalBus();
    await bus.close();
    await expect(bus.publish('r', entry('r', 1))).rejects.toThrow(/closed/);
    expect(() => bus.subscribe('r', () => {})).toThrow(/closed/);
  });
});
