// Child process of bench/realtime.bench.ts: N WebSocket subscribers of one room plus the appender.
// Every timestamp is taken here, on one clock; the server under test runs in the parent process, so
// the clients' own JSON parsing does not steal the server's event loop (both still share 2 cores).
// Protocol (IPC): parent sends one RunSpec, the child answers with one RunResult and exits.
import { WebSocket, type WsLike } from './ws.ts';

export interface RunSpec {
  /** `db8`: hello + subscribe on /v1/ws, append = POST an action. `peer`: a bare `ws` server. */
  target: 'db8' | 'peer';
  wsUrl: string;
  /** POST here to append (db8: /v1/rooms/:id/actions; peer: the trigger route). */
  appendUrl: string;
  /** Body of each append; `{i}` in any string is replaced by the append's number (1-based). */
  appendBody: unknown;
  token?: string;
  roomId?: string;
  /** db8: also follow the room's state (a state frame after each entry), as a default subscribe does. */
  state?: boolean;
  subscribers: number;
  appends: number;
  /** Appends made first and not timed: the server's and the clients' JIT warm-up. */
  warmup: number;
  /** Stop appending after this long even if fewer than `appends` went through. */
  budgetMs: number;
  /** Give up on one push after this long (counted as missed). */
  pushTimeoutMs: number;
}

export interface RunResult {
  connectMs: number;
  appendsDone: number;
  /** Per delivered push: ms from sending the append request. */
  fromSend: number[];
  /** Per delivered push: ms from the append's response arriving (negative: pushed before the ack). */
  fromAck: number[];
  missed: number;
  /** Append round trips (request sent -> response parsed). */
  appendRtt: number[];
  /** Bytes of one pushed message (the last one seen). */
  pushBytes: number;
  /** Bytes of one state message (the last one seen; 0 when none came). */
  stateBytes: number;
}

const now = () => performance.now();

function fill(v: unknown, i: number): unknown {
  if (typeof v === 'string') return v.replaceAll('{i}', String(i));
  if (Array.isArray(v)) return v.map((x) => fill(x, i));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, i)]));
  }
  return v;
}

/** One subscriber: resolves once it is subscribed (db8) or open (peer). */
function connect(
  spec: RunSpec,
  onPush: (seq: number, bytes: number) => void,
  onState: (bytes: number) => void,
): Promise<WsLike> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(spec.wsUrl, { perMessageDeflate: false });
    const t = setTimeout(() => reject(new Error('subscriber did not get ready within 30 s')), 30_000);
    const ready = () => {
      clearTimeout(t);
      resolve(ws);
    };
    ws.on('error', (e) => {
      clearTimeout(t);
      reject(e);
    });
    ws.on('open', () => {
      if (spec.target === 'peer') return ready();
      ws.send(JSON.stringify({ type: 'hello', id: 'h', payload: { client_protocol_version: '0.1' } }));
    });
    ws.on('message', (data) => {
      // A real client parses every message; so does this one.
      const m = JSON.parse(data.toString('utf8')) as { type: string; seq: number; id?: string };
      if (m.type === 'entry') onPush(m.seq, data.length);
      else if (m.type === 'state') onState(data.length);
      else if (m.type === 'welcome') {
        const payload = { room_id: spec.roomId, ...(spec.state === false ? { state: false } : {}) };
        ws.send(JSON.stringify({ type: 'subscribe', id: 's', payload }));
      } else if (m.type === 'subscribed') ready();
      else if (m.type === 'error') reject(new Error(`server error: ${JSON.stringify(m)}`));
    });
  });
}

async function run(spec: RunSpec): Promise<RunResult> {
  const res: RunResult = {
    connectMs: 0,
    appendsDone: 0,
    fromSend: [],
    fromAck: [],
    missed: 0,
    appendRtt: [],
    pushBytes: 0,
    stateBytes: 0,
  };
  // Arrival times by seq: a push may beat the append's response, so record every one.
  const arrivals = new Map<number, number[]>();
  let waiting: { seq: number; done: () => void } | null = null;
  const onPush = (seq: number, bytes: number) => {
    let list = arrivals.get(seq);
    if (!list) {
      list = [];
      arrivals.set(seq, list);
    }
    list.push(now());
    res.pushBytes = bytes;
    if (waiting?.seq === seq && list.length === spec.subscribers) waiting.done();
  };

  const sockets: WsLike[] = [];
  const t0 = now();
  // Connect in waves: a thousand simultaneous handshakes measure the accept queue, not fan-out.
  for (let i = 0; i < spec.subscribers; i += 50) {
    const wave = Math.min(50, spec.subscribers - i);
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: wave }, () =>
          connect(spec, onPush, (bytes) => {
            res.stateBytes = bytes;
          }),
        ),
      )),
    );
  }
  res.connectMs = now() - t0;

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (spec.token) headers.authorization = `Bearer ${spec.token}`;
  const start = now();
  const total = spec.warmup + spec.appends;
  for (let i = 1; i <= total && now() - start < spec.budgetMs; i++) {
    const sentAt = now();
    const r = await fetch(spec.appendUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify(fill(spec.appendBody, i)),
    });
    const body = (await r.json()) as { seq?: number };
    const ackAt = now();
    if (!r.ok || typeof body.seq !== 'number') throw new Error(`append ${i}: ${JSON.stringify(body)}`);
    const seq = body.seq;
    if (i > spec.warmup) res.appendRtt.push(ackAt - sentAt);
    if ((arrivals.get(seq)?.length ?? 0) < spec.subscribers) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, spec.pushTimeoutMs);
        waiting = {
          seq,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
      waiting = null;
    }
    const got = arrivals.get(seq) ?? [];
    arrivals.delete(seq);
    if (i <= spec.warmup) continue;
    res.missed += spec.subscribers - Math.min(got.length, spec.subscribers);
    for (const t of got) {
      res.fromSend.push(t - sentAt);
      res.fromAck.push(t - ackAt);
    }
    res.appendsDone = i - spec.warmup;
  }
  for (const s of sockets) s.terminate();
  return res;
}

process.once('message', (spec: RunSpec) => {
  run(spec).then(
    (r) => process.send!(r, () => process.exit(0)),
    (e: unknown) => {
      process.stderr.write(`realtime-clients: ${(e as Error).stack ?? e}\n`);
      process.exit(1);
    },
  );
});
