// SSE `/events?room_id=` for a room whose protocol has no typed events of its own: presence alone,
// the stream ends when the room closes (an admin ends it here), and a closed room answers 204.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { auctionWithBidders, call } from './routes-fixtures.ts';

let store: Store;
let h: Harness;
let base: string;
beforeAll(async () => {
  store = await sharedStore();
});
afterEach(async () => {
  await h?.close();
});
afterAll(async () => {
  await store.close();
});

/** Reads the stream to its end (the server ends it), with a safety limit against a hang. */
async function readAll(res: Response, onEvent: (event: string, data: unknown) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let hung = false;
  const limit = setTimeout(() => {
    hung = true;
    void reader.cancel();
  }, PATIENCE_MS);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (hung) throw new Error(`the stream did not end within ${PATIENCE_MS} ms`);
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      for (let i = pending.indexOf('\n\n'); i !== -1; i = pending.indexOf('\n\n')) {
        const block = pending.slice(0, i);
        pending = pending.slice(i + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) onEvent(event, JSON.parse(data));
      }
    }
  } finally {
    clearTimeout(limit);
  }
}

describe('SSE /events?room_id=', () => {
  it('sends presence, ends when the room closes, then answers 204; the other streams keep working', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const { admin, roomId } = await auctionWithBidders(h);
    const res = await fetch(`${base}/events?room_id=${roomId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: Array<[string, unknown]> = [];
    let closing = false;
    const done = readAll(res, (event, data) => {
      seen.push([event, data]);
      // Connected: end the room, which ends the stream.
      if (event === 'presence' && !closing) {
        closing = true;
        void call(h, 'POST', `/v1/admin/rooms/${roomId}/end`, { token: admin, body: { reason: 'test' } });
      }
    });
    await done;
    expect(seen[0]).toEqual(['presence', { t: 'presence', room_id: roomId, who: [], typing: [] }]);
    const closed = await call(h, 'GET', `/v1/rooms/${roomId}/state`);
    expect(closed.body.status).toBe('closed');

    const again = await fetch(`${base}/events?room_id=${roomId}`);
    expect(again.status).toBe(204);
    // The entries stream of the same room still answers (connections are reused after a 204).
    for (let i = 0; i < 3; i++) {
      const ac = new AbortController();
      const r = await fetch(`${base}/v1/rooms/${roomId}/events?since=-1`, { signal: ac.signal });
      expect(r.status).toBe(200);
      ac.abort();
    }
  });
});
