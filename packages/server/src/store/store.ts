import { join, resolve } from 'node:path';
import { InvitesRepo, RevokedSessionsRepo } from './credentials.ts';
import type { SqlDriver } from './driver.ts';
import { LeasesRepo } from './leases.ts';
import { CheckpointsRepo, EntriesRepo, IdempotencyRepo, SnapshotsRepo } from './log.ts';
import { migrate } from './migrate.ts';
import { pgliteDriver } from './pglite.ts';
import { pgliteThreadDriver } from './pglite-thread.ts';
import { postgresDriver } from './postgres.ts';
import { ApiKeysRepo, NoncesRepo, PrincipalsRepo } from './principals.ts';
import { RoomsRepo } from './rooms.ts';

/** Typed access to every table, over one SqlDriver (or one transaction of it). */
export class Store {
  readonly rooms: RoomsRepo;
  readonly entries: EntriesRepo;
  readonly snapshots: SnapshotsRepo;
  readonly checkpoints: CheckpointsRepo;
  readonly idempotency: IdempotencyRepo;
  readonly principals: PrincipalsRepo;
  readonly apiKeys: ApiKeysRepo;
  readonly nonces: NoncesRepo;
  readonly invites: InvitesRepo;
  readonly revokedSessions: RevokedSessionsRepo;
  readonly leases: LeasesRepo;

  /** `inTx`: bound to one transaction, whose appends are not group-committed (store/log.ts). */
  constructor(
    readonly db: SqlDriver,
    inTx = false,
  ) {
    this.rooms = new RoomsRepo(db);
    this.entries = new EntriesRepo(db, !inTx);
    this.snapshots = new SnapshotsRepo(db);
    this.checkpoints = new CheckpointsRepo(db);
    this.idempotency = new IdempotencyRepo(db);
    this.principals = new PrincipalsRepo(db);
    this.apiKeys = new ApiKeysRepo(db);
    this.nonces = new NoncesRepo(db);
    this.invites = new InvitesRepo(db);
    this.revokedSessions = new RevokedSessionsRepo(db);
    this.leases = new LeasesRepo(db);
  }

  get kind(): SqlDriver['kind'] {
    return this.db.kind;
  }

  /** Runs fn with a Store bound to one transaction. */
  tx<T>(fn: (s: Store) => Promise<T>): Promise<T> {
    return this.db.tx((q) => fn(new Store(q, true)));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

export interface StoreConfig {
  /** Postgres URL; when absent, the embedded PGlite store is used. Default: env DATABASE_URL. */
  databaseUrl?: string;
  /** Data directory for PGlite (and the server key). Default: env DB8_DATA_DIR or ./.db8 */
  dataDir?: string;
  /** PGlite in memory (tests): ignores dataDir. */
  memory?: boolean;
  /** Postgres schema for search_path. Default: env DB8_PG_SCHEMA, else the server's default. */
  pgSchema?: string;
  /** Postgres pool size. */
  pgMax?: number;
  /**
   * Where the defaults above come from (default process.env, for tools such as the CLI). `false`:
   * nowhere — a caller that resolved its own config (startServer) gets exactly the store it named.
   */
  env?: NodeJS.ProcessEnv | false;
}

/** The data directory the server uses: config, then DB8_DATA_DIR (unless env is false), then ./.db8 */
export function resolveDataDir(dataDir?: string, env: NodeJS.ProcessEnv | false = process.env): string {
  return resolve(dataDir ?? (env === false ? undefined : env.DB8_DATA_DIR) ?? '.db8');
}

/** Opens the store the config asks for and applies pending migrations. */
export async function openStore(config: StoreConfig = {}): Promise<Store> {
  const env = config.env === undefined ? process.env : config.env === false ? {} : config.env;
  const url = config.databaseUrl ?? env.DATABASE_URL;
  let db: SqlDriver;
  if (url && !config.memory) {
    const schema = config.pgSchema ?? env.DB8_PG_SCHEMA;
    db = postgresDriver(url, {
      ...(schema ? { schema } : {}),
      ...(config.pgMax ? { max: config.pgMax } : {}),
    });
  } else {
    // On disk (the embedded default) PGlite runs in its own thread, off the server's event loop;
    // in memory (tests, simulations) it stays in this one, where a test template can seed it.
    db = config.memory
      ? await pgliteDriver('memory')
      : await pgliteThreadDriver(join(resolveDataDir(config.dataDir, env), 'pglite'));
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return new Store(db);
}
