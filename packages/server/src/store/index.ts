export { isUniqueViolation, type SqlDriver } from './driver.ts';
export { CheckpointsRepo, EntriesRepo, IdempotencyRepo, SnapshotsRepo } from './log.ts';
export { bundledMigrations, type Migration, migrate } from './migrate.ts';
export { pgliteDriver } from './pglite.ts';
export { type PostgresDriverOptions, postgresDriver } from './postgres.ts';
export { ApiKeysRepo, hashApiKey, NoncesRepo, PrincipalsRepo } from './principals.ts';
export { type RoomListFilter, RoomsRepo } from './rooms.ts';
export * from './schemas.ts';
export { openStore, resolveDataDir, Store, type StoreConfig } from './store.ts';
