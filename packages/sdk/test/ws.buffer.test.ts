import { describe, expect, it } from 'vitest';
import { Db8Socket, type WebSocketCtor, type WebSocketLike } from '../src/index.ts';

type Ev = { data?: unknown; code?: number; reason?: string };

/** An in-memory WebSocket: answers hello with welcome; `push(n)` delivers a pong numbered n. */
class FakeWs implements WebSocketLike {
  static last: FakeWs | null = null;
  readyState = 0;
  private readonly fns = new Map<string, Array<(ev: Ev) => void>>();
  constructor(_url: string) {
    FakeWs.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.emit('open', {});
    }, 0);
  }
  addEventListener(type: string, fn: (ev: Ev) => void): void {
    this.fns.set(type, [...(this.fns.get(type) ?? []), fn]);
  }
  private emit(type: string, ev: Ev): void {
    for (const fn of this.fns.get(type) ?? []) fn(ev);
  }
  send(data: string): void {
    const m = JSON.parse(data) as { type: string; id: string };
    if (m.type !== 'hello') return;
    const payload = {
      protocol_version: '0.1',
      min_supported_protocol_version: '0.1',
      skill_doc_url: 'http://x/skill.md',
      principal: null,
      role: null,
      server_time_ms: 0,
      heartbeat_ms: 30_000,
    };
    setTimeout(() => this.emit('message', { data: msg('welcome', -1, payload, m.id) }), 0);
  }
  push(n: number): void {
    this.emit('message', { data: msg('pong', n, {}) });
  }
  close(code = 1000): void {
    this.readyState = 3;
    this.emit('close', { code, reason: '' });
  }
}

const msg = (type: string, seq: number, payload: unknown, id?: string) =>
  JSON.stringify({ type, room_id: null, seq, ts: '2026-01-01T00:00:00Z', ...(id ? { id } : {}), payload });

async function open(history?: number): Promise<{ sock: Db8Socket; ws: FakeWs }> {
  const sock = await Db8Socket.connect({
    url: 'ws://fake/v1/ws',
    WebSocket: FakeWs as unknown as WebSocketCtor,
    ...(history !== undefined ? { history } : {}),
  });
  return { sock, ws: FakeWs.last! };
}

const seqs = (ms: readonly { seq: number }[]) => ms.map((m) => m.seq);

describe('Db8Socket message buffer', () => {
  it('keeps only the last `history` messages for received and waitFor', async () => {
    const { sock, ws } = await open(10);
    for (let n = 0; n < 5000; n++) ws.push(n);
    expect(seqs(sock.received)).toEqual(Array.from({ length: 10 }, (_, i) => 4990 + i));
    // Internal storage stays bounded too (at most one trim batch above the window).
    expect((sock as unknown as { buf: unknown[] }).buf.length).toBeLessThanOrEqual(10 + 256);
    expect((await sock.waitFor('pong', (m) => m.seq === 4995)).seq).toBe(4995);
    await expect(sock.waitFor('pong', (m) => m.seq === 3, 20)).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Future messages still resolve a waiter.
    const later = sock.waitFor('pong', (m) => m.seq === 6000);
    ws.push(6000);
    expect((await later).seq).toBe(6000);
    sock.close();
  });

  it('a running messages() iterator misses nothing, however far it lags; ends on close', async () => {
    const { sock, ws } = await open(4);
    const it = sock.messages();
    const first = await it.next(); // the welcome, still retained
    expect(first.value?.type).toBe('welcome');
    for (let n = 0; n < 1000; n++) ws.push(n);
    const second = sock.messages(); // starts at what is retained now: the last 4
    ws.close();
    const got: number[] = [];
    for await (const m of { [Symbol.asyncIterator]: () => it }) got.push(m.seq);
    expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const tail: number[] = [];
    for await (const m of second) tail.push(m.seq);
    expect(tail).toEqual([996, 997, 998, 999]);
    // With no iterator left, storage shrinks back to the window.
    expect((sock as unknown as { buf: unknown[] }).buf.length).toBe(4);
  });

  it('keeps everything since connect while under the window (the default is 1000)', async () => {
    const { sock, ws } = await open();
    for (let n = 0; n < 50; n++) ws.push(n);
    expect(sock.received[0]?.type).toBe('welcome');
    expect(sock.received).toHaveLength(51);
    sock.close();
  });
});
