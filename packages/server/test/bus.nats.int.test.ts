import { randomBytes } from 'node:crypto';
import type { PublicEntry } from '@db8/core';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsBus, roomSubject, roomToken } from '../src/bus/index.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

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

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('NatsBus (real nats-server)', () => {
  let a: NatsBus;
  let b: NatsBus;
  // A unique room per run so parallel runs on the same server do not see each other.
  const room = `room_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    // No skip: if NATS is down, connecting throws and the suite fails.
    a = await NatsBus.connect(NATS_URL);
    b = await NatsBus.connect(NATS_URL);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('fans out across connections, in order, including to the publisher itself', async () => {
    const onA: number[] = [];
    const onB: number[] = [];
    const offA = a.subscribe(room, (e) => onA.push(e.seq));
    const offB = b.subscribe(room, (e) => onB.push(e.seq));
    await b.flush();
    await a.flush();
    for (let i = 1; i <= 50; i++) await a.publish(room, entry(room, i));
    await a.flush();
    const want = Array.from({ length: 50 }, (_, i) => i + 1);
    await until(() => onA.length === 50 && onB.length === 50);
    expect(onB).toEqual(want);
    expect(onA).toEqual(want);
    offA();
    offB();
  });

  it('wildcard subscribers see every room; room subscribers only theirs', async () => {
    const other = `${room}_other`;
    const all: string[] = [];
    const mine: string[] = [];
    const offAll = b.subscribe('*', (e) => all.push(`${e.room}:${e.seq}`));
    const offMine = b.subscribe(room, (e) => mine.push(`${e.room}:${e.seq}`));
    await b.flush();
    await a.publish(other, entry(other, 1));
    await a.publish(room, entry(room, 2));
    await a.flush();
    await until(() => all.length >= 2 && mine.length >= 1);
    expect(all).toEqual([`${other}:1`, `${room}:2`]);
    expect(mine).toEqual([`${room}:2`]);
    offAll();
    offMine();
  });

  it('drops malformed messages published by strangers on our subject', async () => {
    const got: number[] = [];
    const off = b.subscribe(room, (e) => got.push(e.seq));
    await b.flush();
    const raw = await connect({ servers: NATS_URL });
    raw.publish(roomSubject(room), new TextEncoder().encode('{"not":"an entry"}'));
    raw.publish(roomSubject(room), new TextEncoder().encode('not json'));
    await raw.flush();
    await a.publish(room, entry(room, 7));
    await a.flush();
    await until(() => got.length === 1);
    expect(got).toEqual([7]);
    expect(b.dropped).toBe(2);
    await raw.close();
    off();
  });

  it('encodes room ids that are not safe subject tokens', () => {
    expect(roomToken('room_ok-1')).toBe('room_ok-1');
    expect(roomToken('a.b')).toBe(`x_${Buffer.from('a.b').toString('hex')}`);
    expect(roomSubject('a.*>')).not.toMatch(/\*|>/);
  });

  it('stops delivery after unsubscribe', async () => {
    const got: number[] = [];
    const off = b.subscribe(room, (e) => got.push(e.seq));
    await b.flush();
    await a.publish(room, entry(room, 1));
    await a.flush();
    await until(() => got.length === 1);
    off();
    await b.flush();
    await a.publish(room, entry(room, 2));
    await a.flush();
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([1]);
  });
});
