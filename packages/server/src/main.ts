import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { AdminLinks, writeLocalAdminCredential } from './auth/admin-link.ts';
import { LocalBus } from './bus/local.ts';
import { NatsBus } from './bus/nats.ts';
import type { Bus } from './bus/types.ts';
import { configFromEnv, resolveConfig, type ServerConfigInput } from './config.ts';
import { resolveServerKey } from './keys/configured.ts';
import { logOriginFor } from './keys/origin.ts';
import type { ProtocolModule } from './kit/module.ts';
import { reservePort } from './listen-port.ts';
import { externalClockOf, joinEffectsOf, protocolRegistryOf } from './modules.ts';
import { mountModules } from './mount.ts';
import { DeadlineScheduler, Runtime } from './runtime/index.ts';
import { openStore, resolveDataDir, type Store } from './store/index.ts';

export interface StartOptions extends ServerConfigInput {
  /** Where the startup lines go (default stdout). */
  print?: (line: string) => void;
  /**
   * Where settings not given as options come from: DATABASE_URL, NATS_URL, OIDC_* … (default
   * process.env). `false`: nowhere — the store, bus and links follow the options and defaults only.
   */
  env?: NodeJS.ProcessEnv | false;
  /** The protocol modules this server runs (the `db8` package passes the built-in ones). */
  modules: readonly ProtocolModule[];
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** The one-time admin login link printed on start, or null (server mode). */
  adminLink: string | null;
  /**
   * The local admin credential file (`<dataDir>/local-admin.json`, mode 0600) that `db8 login
   * --local` uses, as often as needed, while it exists; null in server mode.
   */
  localAdminFile: string | null;
  runtime: Runtime;
  store: Store;
  bus: Bus;
  close(): Promise<void>;
}

/**
 * What the embedded store survives, said at every start (docs/server.md, Durability): PGlite
 * writes its files without fsync, so an acknowledged entry outlives the process, not the machine.
 */
export const EMBEDDED_DURABILITY =
  'embedded store: acknowledged entries survive a crash of this process, not a power cut or an OS crash (PGlite does not fsync); for durable storage use Postgres (DATABASE_URL)';

/**
 * Start db8: the store (PGlite in dataDir, or Postgres with DATABASE_URL), the bus (in-process, or
 * NATS with NATS_URL), the runtime and its deadline scheduler, the HTTP/WS server, and the web app
 * from `webDist` when given (the `db8` package gives its built app). In embedded mode prints a one-time admin login link.
 */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const { print = (l: string) => process.stdout.write(`${l}\n`), env, modules, ...rest } = opts;
  const fromEnv = env === false ? {} : configFromEnv(env ?? process.env);
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const input = {
    ...fromEnv,
    ...defined,
  } as ServerConfigInput;
  let config = resolveConfig(input);
  // Port 0: take a free port now, so every link built from the config names it (not port 0).
  const reserved = config.port === 0 && input.publicUrl === undefined ? await reservePort(config.host) : null;
  if (reserved) config = resolveConfig({ ...input, port: reserved.port });
  const closers: Array<() => Promise<void>> = reserved ? [() => reserved.release()] : [];
  try {
    const dataDir = resolveDataDir(config.dataDir, false);
    const serverKey = resolveServerKey(dataDir, config.serverKey);
    // From the resolved config only (env: false), so the store is the one `embedded` below reports.
    const store = await openStore({
      env: false,
      dataDir,
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
      ...(config.pgSchema ? { pgSchema: config.pgSchema } : {}),
    });
    closers.unshift(() => store.close());
    const bus: Bus = config.natsUrl ? await NatsBus.connect(config.natsUrl) : new LocalBus();
    closers.unshift(() => bus.close());
    const runtime = new Runtime({
      store,
      protocols: protocolRegistryOf(modules),
      joinEffects: joinEffectsOf(modules),
      externalClock: externalClockOf(modules),
      serverKey,
      bus,
      announcements: bus,
      // From the shared key, not PUBLIC_BASE_URL: nodes with different URLs sign one origin.
      origin: logOriginFor(serverKey.publicKey),
    });
    const adminLinks = new AdminLinks();
    const providerEnv = env === false ? {} : (env ?? process.env);
    const app = await buildApp({
      runtime,
      store,
      bus,
      serverKey,
      config,
      adminLinks,
      modules,
      env: providerEnv,
    });
    closers.unshift(() => app.close());
    // Each protocol module's routes and background work, then the model drivers (docs/protocols.md).
    await mountModules(app, { runtime, store, bus });
    // Every room's deadlines, at their time; pending ones are read back from the store on start.
    const scheduler = new DeadlineScheduler(runtime, {
      bus,
      onError: (err) => app.log.error({ err }, 'deadline scheduler'),
    });
    await scheduler.start();
    closers.unshift(() => scheduler.stop());
    // Used and expired login challenges are dead weight: sweep them now and then.
    const sweep = setInterval(() => {
      const now = Date.now();
      store.nonces.purge(now).catch((err) => app.log.warn({ err }, 'nonce purge'));
      // Expired invites and revocations of sessions that could no longer verify, likewise.
      store.invites.purge(now).catch((err) => app.log.warn({ err }, 'invite purge'));
      store.revokedSessions.purge(now).catch((err) => app.log.warn({ err }, 'revocation purge'));
    }, 10 * 60_000);
    sweep.unref();
    closers.unshift(async () => clearInterval(sweep));
    if (reserved) {
      // Everything is registered: hand the reserved port over with the shortest gap we can.
      await app.ready();
      await reserved.release();
    }
    await app.listen({ port: config.port, host: config.host });
    const url = config.publicUrl;

    const embedded = !config.databaseUrl;
    let adminLink: string | null = null;
    if (config.adminLink ?? embedded) {
      adminLink = adminLinks.url(url, adminLinks.create(config.adminLinkTtlSec * 1000));
    }
    let localAdminFile: string | null = null;
    if (adminLink && embedded) {
      // The CLI's way in on this machine: a reusable secret only this user can read (a browser
      // uses the one-time link). Deleting the file revokes it.
      localAdminFile = join(dataDir, 'local-admin.json');
      writeLocalAdminCredential(localAdminFile, url);
      adminLinks.acceptLocalCredential(localAdminFile);
    }
    print(
      `db8 listening on ${url} (${embedded ? `embedded store in ${dataDir}` : 'Postgres'}, ${config.natsUrl ? 'NATS bus' : 'in-process bus'})`,
    );
    if (adminLink) print(`admin login (one use): ${adminLink}`);
    if (localAdminFile) {
      print(`CLI admin on this machine: db8 login --local ${localAdminFile}`);
      print(`  (that file is readable by you only; delete it to revoke)`);
    }
    if (embedded) print(EMBEDDED_DURABILITY);

    let closed = false;
    return {
      app,
      url,
      adminLink,
      localAdminFile,
      runtime,
      store,
      bus,
      async close() {
        if (closed) return;
        closed = true;
        for (const c of closers) await c().catch(() => {});
      },
    };
  } catch (err) {
    for (const c of closers) await c().catch(() => {});
    throw err;
  }
}
