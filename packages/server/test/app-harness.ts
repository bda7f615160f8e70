import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createProtocolRegistry } from '@db8/core';
import { joinEffectsOf } from '@db8/server';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../src/app.ts';
import { AdminLinks } from '../src/auth/admin-link.ts';
import { LocalBus } from '../src/bus/local.ts';
import type { Bus } from '../src/bus/types.ts';
import type { ServerConfigInput } from '../src/config.ts';
import { type ServerKey, serverKeyFromSeed } from '../src/keys/index.ts';
import type { AppRuntime } from '../src/kit/runtime.ts';
import { type MountedModules, mountModules } from '../src/mount.ts';
import { Runtime } from '../src/runtime/index.ts';
import { openStore, type Store } from '../src/store/index.ts';

/** A settable clock so tests can expire tokens and challenges without waiting. */
export class TestClock {
  constructor(public now = Date.UTC(2026, 0, 1)) {}
  readonly fn = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

/**
 * PGlite takes seconds to start: one in-memory store per test file, shared by its apps. Its file
 * closes it in afterAll, which forgets it here too: the next file in the same worker (the suites
 * share module graphs, isolate: false) opens its own instead of getting a closed one.
 */
let shared: Promise<Store> | null = null;
export function sharedStore(): Promise<Store> {
  if (shared) return shared;
  const opening = openStore({ memory: true }).then((store) => {
    const close = store.close.bind(store);
    store.close = async () => {
      if (shared === opening) shared = null;
      await close();
    };
    return store;
  });
  shared = opening;
  return opening;
}

/** For afterAll in a file that uses sharedStore() without closing it itself: closes it if open. */
export async function closeSharedStore(): Promise<void> {
  if (shared) await (await shared).close();
}

export interface Harness {
  app: FastifyInstance;
  store: Store;
  bus: Bus;
  clock: TestClock;
  serverKey: ServerKey;
  /** The real runtime (PGlite store, LocalBus, the test clock, built-in protocols). */
  runtime: Runtime;
  adminLinks: AdminLinks;
  logs: string[];
  /** The protocol modules' routes and drivers, when made with `mountModules: true`. */
  mounted?: MountedModules | null;
  close(): Promise<void>;
}

export async function makeApp(
  opts: {
    config?: ServerConfigInput;
    runtime?: AppRuntime;
    store?: Store;
    serverKey?: ServerKey;
    /** Mount the protocol modules' routes and background work (as main.ts does) before ready. */
    mountModules?: boolean;
  } & Partial<Omit<AppDeps, 'serverKey'>> = {},
): Promise<Harness> {
  const ownStore = !opts.store;
  const store = opts.store ?? (await openStore({ memory: true }));
  const bus = opts.bus ?? new LocalBus();
  const clock = new TestClock();
  const serverKey = opts.serverKey ?? serverKeyFromSeed(new Uint8Array(randomBytes(32)), 'db8.test');
  const runtime = new Runtime({
    store,
    protocols: createProtocolRegistry(builtinProtocols),
    joinEffects: joinEffectsOf(builtinModules),
    serverKey,
    bus,
    clock: clock.fn,
    origin: 'db8.test',
  });
  const adminLinks = new AdminLinks(clock.fn);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp({
    modules: builtinModules,
    ...opts,
    runtime: opts.runtime ?? runtime,
    store,
    bus,
    serverKey,
    adminLinks,
    clock: clock.fn,
    logStream,
    config: { logLevel: 'info', ...opts.config },
  });
  const mounted = opts.mountModules ? await mountModules(app, { runtime, store, bus }) : null;
  await app.ready();
  return {
    app,
    store,
    bus,
    clock,
    serverKey,
    runtime,
    adminLinks,
    logs,
    mounted,
    async close() {
      await app.close();
      if (ownStore) await store.close();
    },
  };
}

export const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(body),
});

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Listen on an ephemeral port; returns the base URL. */
export async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}`;
}

/** A bus that loses messages (by predicate), to show feeds fill gaps from the store. */
export class LossyBus implements Bus {
  readonly inner = new LocalBus();
  dropped = 0;
  constructor(private readonly drop: (seq: number) => boolean) {}
  async publish(roomId: string, entry: Parameters<Bus['publish']>[1]): Promise<void> {
    if (this.drop(entry.seq)) {
      this.dropped++;
      return;
    }
    await this.inner.publish(roomId, entry);
  }
  subscribe(roomId: string, fn: Parameters<Bus['subscribe']>[1]): () => void {
    return this.inner.subscribe(roomId, fn);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
