// The server's host kit: the one surface a protocol's server module imports from the platform
// (`@db8/server/kit`), as a Fastify plugin imports fastify. Everything else under packages/server/src
// is the platform's own; test/boundaries.test.ts keeps modules to this file.

// Token buckets (a module's own limits, e.g. debate's per-author submissions).
export { RateLimiter, rateLimited } from '../auth/limits.ts';
export type { AuthContext } from '../auth/types.ts';
// A module that follows a JetStream subject itself (the question protocol's replicas).
export { type Follower, JetStreamLog, type StreamMessage } from '../bus/jetstream.ts';
export type { Bus } from '../bus/types.ts';
// Model-driven seats: the agent contract and its helpers.
export {
  clip,
  type Decision,
  fixedDecision,
  modelDecision,
  type SeatAgent,
  type SeatContext,
  withPersona,
} from '../drivers/agent.ts';
export { providerFor } from '../drivers/spec.ts';
export { DriverStore } from '../drivers/store.ts';
// HTTP: errors in the house shape, auth guards, zod-typed routes, the wire's shared schemas.
export { ApiError, zodDetails } from '../errors.ts';
export { RestCaller, type RestResult } from '../mcp/rest.ts';
export type { FeedSink, Subscription } from '../realtime/feed.ts';
// Realtime: the frames a wire codec encodes, and a server-side subscription's sink.
export { Frame } from '../realtime/frame.ts';
export type { RealtimeHub } from '../realtime/hub.ts';
export type { RoomEventProducer } from '../realtime/room-events.ts';
export { actorFor, viewerIn } from '../routes/access.ts';
export { requireAdmin, requireAuth, type SeatLabeler } from '../routes/context.ts';
export type { ZodTypeProvider } from '../routes/zod.ts';
export { RuntimeError, runtimeError } from '../runtime/errors.ts';
// Work a cluster does once: the process holding the named lease in the store does it.
export { DEFAULT_LEASE_MS, keepLease, type LeaseKeeper } from '../runtime/lease.ts';
// Timers longer than setTimeout's 24.8-day limit.
export { armAt } from '../runtime/long-timer.ts';
// The room runtime's shapes and errors.
export type { ActWatch, RoomInfo, StateFor, WatchedAct } from '../runtime/types.ts';
export { isSupportedVersion } from '../schemas/common.ts';
export { type DriverSpec, DriverSpecSchema } from '../schemas/drivers.ts';
export { toJsonSchema } from '../schemas/protocol-json.ts';
export type { SeatLabel, State } from '../schemas/rest.ts';
export type { SqlDriver } from '../store/driver.ts';
export type { Store } from '../store/index.ts';
// A module's own tables: `migrations: migrationsIn(dir)` (NNN_name.sql files, in order).
export { bundledMigrations as migrationsIn, type Migration, migrate } from '../store/migrate.ts';
// A module's own tables in an embedded database outside a server (a CLI's local bank).
export { pgliteDriver } from '../store/pglite.ts';
// An agent's profile: the section a module contributes and its helpers.
export {
  type AgentRecordQuery,
  type AgentRecordSection,
  AgentRecordSectionSchema,
  type AgentRecordSource,
  type AgentRoomRecord,
  AgentRoomRecordSchema,
  type AgentSeat,
  ordinal,
  roomRecord,
  sectionOf,
} from './agent-record.ts';
export { type DriverIdentity, driverIdentity, ensureDriverPrincipal, linkRoom } from './identities.ts';
// The contract a module implements, and what it is given.
export type {
  Env,
  JoinEffect,
  JoinInput,
  ModuleContext,
  ModuleHost,
  ModuleTool,
  PrepareContext,
  ProtocolModule,
} from './module.ts';
export type { ModuleRuntime } from './runtime.ts';
export type { WireCodec, WireCommand, WireHost, WireOpened, WireReply, WireSession } from './wire.ts';
