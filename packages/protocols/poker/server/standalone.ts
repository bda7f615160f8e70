import { createServer } from 'node:net';
import {
  AdminLinks,
  buildApp,
  DeadlineScheduler,
  generateServerKey,
  LocalBus,
  openStore,
  protocolRegistryOf,
  Runtime,
  type Store,
} from '@db8/server';
import type { FastifyInstance } from 'fastify';
import { type PokerPlugin, pokerModule, registerPoker } from './module.ts';

export interface LocalPokerServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  app: FastifyInstance;
  runtime: Runtime;
  poker: PokerPlugin;
  store: Store;
  /** A one-time admin login token for POST /v1/auth/login. */
  adminLoginToken(): string;
  close(): Promise<void>;
}

/** A free loopback port (so the public URL in join responses is right before the app is built). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A whole poker server in this process: in-memory PGlite (or the given store), LocalBus, the
 * runtime, the HTTP app with the poker plugin, and the deadline scheduler. For
 * `db8 poker simulate`, tests and benchmarks; `npm start` builds the full server elsewhere.
 */
export async function startLocalPokerServer(
  opts: { port?: number; host?: string; store?: Store; logLevel?: 'warn' | 'error' | 'info' | 'silent' } = {},
): Promise<LocalPokerServer> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port || (await freePort(host));
  const store = opts.store ?? (await openStore({ memory: true }));
  const bus = new LocalBus();
  const serverKey = generateServerKey('db8.local');
  // One node: the local bus hears every append, so a Postgres store is not re-read per state.
  const runtime = new Runtime({
    store,
    protocols: protocolRegistryOf([pokerModule]),
    serverKey,
    bus,
    announcements: bus,
  });
  const adminLinks = new AdminLinks();
  const app = await buildApp({
    modules: [pokerModule],
    runtime,
    store,
    bus,
    serverKey,
    adminLinks,
    config: {
      port,
      host,
      logLevel: opts.logLevel ?? 'warn',
      // Local agents share one loopback address: per-IP limits would throttle the simulation.
      rateLimit: { max: 1_000_000, windowMs: 60_000 },
      authRateLimit: { max: 1_000_000, windowMs: 60_000 },
    },
  });
  const poker = await registerPoker(app, { app: app.db8, runtime, env: process.env });
  const scheduler = new DeadlineScheduler(runtime, { bus });
  await scheduler.start();
  await app.listen({ port, host });
  return {
    base: `http://${host}:${port}`,
    app,
    runtime,
    poker,
    store,
    adminLoginToken: () => adminLinks.create(10 * 60_000),
    async close() {
      await scheduler.stop();
      await app.close();
      await runtime.drain();
      if (!opts.store) await store.close();
    },
  };
}
