// LiveSocket's own rules, against an in-memory server that misbehaves on purpose: a silent peer is
// dropped by the heartbeat, and a skipped seq is never delivered but resumed from the cursor.
import { describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { type EntryWire, RoomSocket, type WebSocketCtor, type WebSocketLike } from '../src/index.ts';

type Ev = { data?: unknown; code?: number; reason?: string };
type Sent = { type: string; id?: string; payload?: Record<string, unknown> };

const WELCOME = {
  protocol_version: '0.1',
  min_supported_protocol_version: '0.1',
  skill_doc_url: 'http://x/skill.md',
  principal: null,
  role: null,
  server_time_ms: 0,
  heartbeat_ms: 30_000,
};

const frame = (type: string, seq: number, payload: unknown, roomId: string | null = null, id?: string) =>
  JSON.stringify({ type, room_id: roomId, seq, ts: '2026-01-01T00:00:00Z', ...(id ? { id } : {}), payload });

const entry = (seq: number) => ({
  v: 1,
  room: 'room_a',
  seq,
  ts: seq,
  kind: 'action',
  actor: 'x',
  vis: { kind: 'public' },
});

/** A fake /v1/ws: welcomes, acknowledges subscriptions; the test decides what else happens. */
class FakeServer {
  readonly sockets: FakeWs[] = [];
  readonly sent: Sent[] = [];
  pong = true;
  ctor(): WebSocketCtor {
    const server = this;
    return class extends FakeWs {
      constructor(url: string) {
        super(url, server);
      }
    } as unknown as WebSocketCtor;
  }
}

class FakeWs implements WebSocketLike {
  readyState = 0;
  private readonly fns = new Map<string, Array<(ev: Ev) => void>>();
  constructor(
    _url: string,
    private readonly server: FakeServer,
  ) {
    server.sockets.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.emit('open', {});
    }, 0);
  }
  addEventListener(type: string, fn: (ev: Ev) => void): void {
    this.fns.set(type, [...(this.fns.get(type) ?? []), fn]);
  }
  emit(type: string, ev: Ev): void {
    for (const fn of this.fns.get(type) ?? []) fn(ev);
  }
  push(text: string): void {
    setTimeout(() => this.readyState === 1 && this.emit('message', { data: text }), 0);
  }
  send(data: string): void {
    const m = JSON.parse(data) as Sent;
    this.server.sent.push(m);
    if (m.type === 'hello') this.push(frame('welcome', 0, WELCOME, null, m.id));
    if (m.type === 'ping' && this.server.pong) this.push(frame('pong', 0, {}));
    if (m.type === 'subscribe')
      this.push(
        frame(
          'subscribed',
          3,
          { room_id: 'room_a', viewer: { kind: 'observer' }, head_seq: 3 },
          'room_a',
          m.id,
        ),
      );
  }
  close(code = 1000): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    setTimeout(() => this.emit('close', { code, reason: '' }), 0);
  }
}

const until = async (cond: () => boolean, ms = PATIENCE_MS) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
};

describe('LiveSocket rules', () => {
  it('a peer that stops answering pings is dropped and the client reconnects', async () => {
    const server = new FakeServer();
    server.pong = false;
    const s = await RoomSocket.connect({
      url: 'ws://fake/v1/ws',
      WebSocket: server.ctor(),
      heartbeatMs: 20,
      backoff: { initialMs: 1, maxMs: 5 },
    });
    await until(() => s.live.connections >= 3);
    expect(server.sent.filter((m) => m.type === 'ping').length).toBeGreaterThan(0);
    // Answering again keeps one connection up.
    server.pong = true;
    await s.live.ready();
    const n = s.live.connections;
    await new Promise((r) => setTimeout(r, 120));
    expect(s.live.connections).toBe(n);
    s.close();
  });

  it('a skipped seq is never delivered: the client resumes from the last seq it delivered', async () => {
    const server = new FakeServer();
    const s = await RoomSocket.connect({
      url: 'ws://fake/v1/ws',
      WebSocket: server.ctor(),
      backoff: { initialMs: 1, maxMs: 5 },
    });
    const got: number[] = [];
    s.on((_id, ev) => ev.event === 'entry' && got.push((ev.entry as EntryWire).seq));
    await s.subscribe('room_a', { since: -1 });
    const first = server.sockets.at(-1)!;
    for (const seq of [0, 1, 1, 3]) first.push(frame('entry', seq, { entry: entry(seq) }, 'room_a'));
    await until(() => server.sockets.length === 2 && s.live.status === 'live');
    expect(got).toEqual([0, 1]);
    expect(s.live.duplicates).toBe(1);
    expect(s.live.gaps).toBe(1);
    const resumed = server.sent.filter((m) => m.type === 'subscribe').at(-1)!;
    expect(resumed.payload).toMatchObject({ room_id: 'room_a', since: 1 });
    const second = server.sockets.at(-1)!;
    for (const seq of [1, 2, 3]) second.push(frame('entry', seq, { entry: entry(seq) }, 'room_a'));
    await until(() => got.length === 4);
    expect(got).toEqual([0, 1, 2, 3]);
    s.close();
  });
});
