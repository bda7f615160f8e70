import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createProtocolRegistry } from '@db8/core';
import { buildApp } from '@db8/server/src/app.ts';
import { AdminLinks } from '@db8/server/src/auth/admin-link.ts';
import { LocalBus } from '@db8/server/src/bus/local.ts';
import { serverKeyFromSeed } from '@db8/server/src/keys/index.ts';
import { DeadlineScheduler, Runtime } from '@db8/server/src/runtime/index.ts';
import type { Store } from '@db8/server/src/store/index.ts';
import type { FastifyInstance } from 'fastify';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import type { PokerServerMessage } from '../../rules/index.ts';
import { type PokerPlugin, pokerModule, registerPoker } from '../../server/index.ts';

/**
 * A real poker server on an ephemeral loopback port: PGlite store, LocalBus, the real Runtime on the
 * wall clock (table timeouts fire on the deadline scheduler), the app from buildApp plus registerPoker.
 */
export interface PokerServer {
  app: FastifyInstance;
  base: string;
  runtime: Runtime;
  poker: PokerPlugin;
  admin: string;
  logs: string[];
  close(): Promise<void>;
}

export async function startPokerServer(store: Store): Promise<PokerServer> {
  const bus = new LocalBus();
  const serverKey = serverKeyFromSeed(new Uint8Array(randomBytes(32)), 'db8.test');
  const runtime = new Runtime({
    store,
    protocols: createProtocolRegistry([pokerModule.protocol]),
    serverKey,
    bus,
    origin: 'db8.test',
  });
  const adminLinks = new AdminLinks();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp({
    modules: [pokerModule],
    runtime,
    store,
    bus,
    serverKey,
    adminLinks,
    logStream,
    config: { logLevel: 'warn', rateLimit: { max: 100_000, windowMs: 60_000 }, port: 0 },
  });
  const poker = await registerPoker(app, { app: app.db8, runtime, env: process.env });
  const scheduler = new DeadlineScheduler(runtime, { bus });
  await scheduler.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${addr.port}`;
  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: adminLinks.create(60_000) }),
  });
  const admin = ((await login.json()) as { token: string }).token;
  return {
    app,
    base,
    runtime,
    poker,
    admin,
    logs,
    async close() {
      await scheduler.stop();
      await app.close();
      await runtime.drain();
    },
  };
}

export async function http(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string; body?: unknown } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields freely; schemas are tested elsewhere.
): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await r.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: r.status, body, text };
}

interface RawSocket {
  send(data: string): void;
  close(): void;
  on(ev: 'message', fn: (data: unknown) => void): void;
  on(ev: 'close', fn: (code: number, reason: unknown) => void): void;
  once(ev: 'open', fn: () => void): void;
  once(ev: 'error', fn: (err: Error) => void): void;
}

/** A raw WebSocket client (the `ws` package: Node 20 has no global WebSocket) that records every
 * message and can wait for one matching a predicate. */
export class WsClient {
  readonly received: PokerServerMessage[] = [];
  private waiters: Array<{
    pred: (m: PokerServerMessage) => boolean;
    resolve: (m: PokerServerMessage) => void;
  }> = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(private readonly ws: RawSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as PokerServerMessage;
      this.received.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(m)) return true;
        w.resolve(m);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
    });
  }

  static async open(url: string): Promise<WsClient> {
    const name = 'ws'; // no @types/ws: typed by the little used above
    const { WebSocket } = (await import(name)) as { WebSocket: new (url: string) => RawSocket };
    const ws = new WebSocket(url);
    // Listening from the start: frames that come with the upgrade response are not missed.
    const client = new WsClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return client;
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** The first message (already received or future) matching `pred`, after index `from`. */
  next(
    pred: (m: PokerServerMessage) => boolean,
    from = 0,
    timeoutMs = PATIENCE_MS,
  ): Promise<PokerServerMessage> {
    const seen = this.received.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out; last: ${JSON.stringify(this.received.at(-1))?.slice(0, 400)}`)),
        timeoutMs,
      );
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}
