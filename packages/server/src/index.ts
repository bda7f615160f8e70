// @db8/server — the store, the room runtime, the server key and what a server derives from its
// protocol modules. It names no protocol: packages/app composes it with the built-in ones.

// The HTTP server (app, access, bus, realtime). Wire schemas: import from '@db8/server/schemas'.
export { type AppDeps, buildApp, issuerFor } from './app.ts';
export {
  AdminLinks,
  type AuthContext,
  Authenticator,
  type AuthStore,
  MemoryAuthStore,
  OidcVerifier,
  SshLogin,
  storeAuth,
  TokenService,
} from './auth/index.ts';
export { type Bus, LocalBus, NatsBus } from './bus/index.ts';
export {
  configFromEnv,
  resolveConfig,
  type ServerConfig,
  type ServerConfigInput,
} from './config.ts';
export { ApiError, toHttpError } from './errors.ts';
export * from './keys/index.ts';
export type * from './kit/module.ts';
export { EMBEDDED_DURABILITY, type RunningServer, type StartOptions, startServer } from './main.ts';
export * from './modules.ts';
export { type MountedModules, mountModules } from './mount.ts';
export * from './runtime/index.ts';
export * from './store/index.ts';
