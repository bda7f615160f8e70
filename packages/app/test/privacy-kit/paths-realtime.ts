import { PATIENCE_MS } from '../../../../test/patience.ts';
import { type Delivery, enc, type ProbeTarget, type ReadPath } from './probe.ts';

/**
 * The realtime read paths over real sockets: SSE `/v1/rooms/:id/events` from the start, SSE
 * `/events?room_id=` (typed events) at connect, db8's
 * WebSocket `/v1/ws` subscribed from the start, and poker's seed-002 table socket in both formats.
 * Each read stops once the room's head entry and a state have come (the room does not move while
 * the kit reads it); a stream that never gets there fails the probe.
 */

/** A safety limit against a stream that never gets there, not a budget (test/patience.ts). */
const WAIT_MS = PATIENCE_MS;

interface WsLike {
  on(ev: 'open' | 'close', fn: () => void): void;
  on(ev: 'message', fn: (d: unknown) => void): void;
  on(ev: 'error', fn: (e: Error) => void): void;
  on(ev: 'unexpected-response', fn: (req: unknown, res: { statusCode?: number }) => void): void;
  send(d: string): void;
  close(): void;
  terminate(): void;
}
type WsCtor = new (url: string, opts?: { headers?: Record<string, string> }) => WsLike;
let wsCtor: Promise<WsCtor> | null = null;
/** `ws` (the server's own WebSocket library) is not a direct dependency; no @types for it either. */
function WebSocketClass(): Promise<WsCtor> {
  const name = 'ws';
  wsCtor ??= import(name).then((m: { WebSocket: WsCtor }) => m.WebSocket);
  return wsCtor;
}

const auth = (t: ProbeTarget): Record<string, string> =>
  t.viewer.token ? { authorization: `Bearer ${t.viewer.token}` } : {};

async function sse(t: ProbeTarget): Promise<Delivery> {
  const path = 'GET /v1/rooms/:id/events?since=-1';
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), WAIT_MS);
  try {
    const res = await fetch(`${t.base}/v1/rooms/${enc(t.roomId)}/events?since=-1`, {
      headers: auth(t),
      signal: ac.signal,
    });
    if (res.status !== 200) return { path, status: res.status, text: await res.text() };
    let text = '';
    const entries: unknown[] = [];
    const views: unknown[] = [];
    let seenHead = false;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    while (!(seenHead && views.length > 0)) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = decoder.decode(value, { stream: true });
      text += chunk;
      pending += chunk;
      for (let i = pending.indexOf('\n\n'); i !== -1; i = pending.indexOf('\n\n')) {
        const event = pending.slice(0, i);
        pending = pending.slice(i + 2);
        const kind = /^event: (\w+)$/m.exec(event)?.[1];
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (data === undefined) continue;
        const body = JSON.parse(data) as { seq?: number; view?: unknown };
        if (kind === 'entry') {
          entries.push(body);
          if (body.seq === t.head) seenHead = true;
        } else if (kind === 'state') views.push(body.view);
      }
    }
    ac.abort();
    if (!seenHead || views.length === 0) throw new Error(`SSE ended before the head entry and a state`);
    return { path, status: 200, text, entries: { as: t.viewer.viewer, list: entries }, views };
  } catch (err) {
    if (ac.signal.aborted && (err as Error).name === 'AbortError')
      throw new Error(`${path} as ${t.viewer.name}: no head entry and state within ${WAIT_MS} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * SSE `/events?room_id=`: the typed room events (debate's phase, submission and vote as this viewer
 * may see them; presence). Read up to the presence event, which follows the events of the first
 * state; a closed room answers 204 with nothing. Searched as text for every secret of the viewer.
 */
async function sseEvents(t: ProbeTarget): Promise<Delivery> {
  const path = 'GET /events?room_id=';
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), WAIT_MS);
  try {
    const res = await fetch(`${t.base}/events?room_id=${enc(t.roomId)}`, {
      headers: auth(t),
      signal: ac.signal,
    });
    if (res.status !== 200) return { path, status: res.status, text: await res.text() };
    let text = '';
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    while (!/^event: presence$/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    ac.abort();
    if (!/^event: presence$/m.test(text)) throw new Error(`${path} ended before its presence event`);
    return { path, status: 200, text, fromView: true };
  } catch (err) {
    if (ac.signal.aborted && (err as Error).name === 'AbortError')
      throw new Error(`${path} as ${t.viewer.name}: no presence event within ${WAIT_MS} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens a socket at `url`, sends `first` (if any), and collects text messages until `done` says the
 * read is complete or the server closes the socket (a refusal). Resolves with everything received.
 */
async function socket(
  url: string,
  headers: Record<string, string>,
  first: readonly string[],
  done: (msg: { type?: string; seq?: number; payload?: unknown }) => boolean,
): Promise<{ status: number; messages: string[] }> {
  const WebSocket = await WebSocketClass();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: string[] = [];
    let status = 101;
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${url}: no complete read within ${WAIT_MS} ms (got ${messages.length} messages)`));
    }, WAIT_MS);
    const finish = () => {
      clearTimeout(timer);
      ws.close();
      resolve({ status, messages });
    };
    ws.on('unexpected-response', (_req, res) => {
      status = res.statusCode ?? 0;
      clearTimeout(timer);
      ws.terminate();
      resolve({ status, messages });
    });
    ws.on('open', () => {
      for (const m of first) ws.send(m);
    });
    ws.on('message', (d) => {
      const text = String(d);
      messages.push(text);
      if (done(JSON.parse(text))) finish();
    });
    ws.on('close', () => {
      clearTimeout(timer);
      resolve({ status, messages });
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

async function db8Ws(t: ProbeTarget): Promise<Delivery> {
  const path = 'WS /v1/ws subscribe since -1';
  let seenHead = false;
  let state = false;
  const hello = {
    type: 'hello',
    payload: { client_protocol_version: '0.1', ...(t.viewer.token ? { token: t.viewer.token } : {}) },
  };
  const sub = { type: 'subscribe', id: 'kit', payload: { room_id: t.roomId, since: -1 } };
  const r = await socket(
    `${t.base.replace('http', 'ws')}/v1/ws`,
    {},
    [JSON.stringify(hello), JSON.stringify(sub)],
    (m) => {
      if (m.type === 'entry' && m.seq === t.head) seenHead = true;
      if (m.type === 'state') state = true;
      // A refused subscription ends the read too.
      return (seenHead && state) || (m.type === 'error' && (m as { id?: string }).id === 'kit');
    },
  );
  const parsed = r.messages.map(
    (m) => JSON.parse(m) as { type: string; payload: { entry?: unknown; view?: unknown } },
  );
  return {
    path,
    status: r.status,
    text: r.messages.join('\n'),
    entries: {
      as: t.viewer.viewer,
      list: parsed.filter((m) => m.type === 'entry').map((m) => m.payload.entry),
    },
    views: parsed.filter((m) => m.type === 'state').map((m) => m.payload.view),
  };
}

async function pokerWs(t: ProbeTarget, format: 'full' | 'compact'): Promise<Delivery> {
  const path = `WS /v1/poker/ws?format=${format}`;
  const q = new URLSearchParams({ format, ...(t.viewer.token ? {} : { table_id: t.roomId }) });
  // A seat's session names its table; an admin or an agent without a seat watches by table_id.
  if (t.viewer.token && t.viewer.viewer.kind !== 'seat') q.set('table_id', t.roomId);
  const r = await socket(
    `${t.base.replace('http', 'ws')}/v1/poker/ws?${q}`,
    auth(t),
    [],
    (m) => m.type === 'game_state',
  );
  return { path, status: r.status, text: r.messages.join('\n') };
}

export const realtimePaths: readonly ReadPath[] = [
  { covers: ['GET /v1/rooms/:id/events'], probe: async (t) => [await sse(t)] },
  { covers: ['GET /events'], probe: async (t) => [await sseEvents(t)] },
  { covers: ['GET /v1/ws'], probe: async (t) => [await db8Ws(t)] },
  {
    covers: ['GET /v1/poker/ws'],
    only: 'poker',
    probe: async (t) => [await pokerWs(t, 'full'), await pokerWs(t, 'compact')],
  },
];
