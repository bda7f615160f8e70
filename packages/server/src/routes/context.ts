import type { FastifyRequest } from 'fastify';
import type { AdminLinks } from '../auth/admin-link.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Limits } from '../auth/limits.ts';
import type { OidcVerifier } from '../auth/oidc.ts';
import type { SshLogin } from '../auth/ssh-login.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { AuthContext, AuthStore } from '../auth/types.ts';
import type { Bus } from '../bus/types.ts';
import type { ServerConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { ProtocolModule } from '../kit/module.ts';
import type { RoomRuntime } from '../kit/runtime.ts';
import type { RoomInfo } from '../runtime/types.ts';
import type { DriverSpec, Drivers } from '../schemas/drivers.ts';
import type { SeatLabel } from '../schemas/rest.ts';
import type { Store } from '../store/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved credentials, or null for an anonymous observer. */
    auth: AuthContext | null;
  }
}

/** Everything route handlers share, built once by buildApp. */
export interface AppContext {
  config: ServerConfig;
  runtime: RoomRuntime;
  store: Store;
  bus: Bus;
  authStore: AuthStore;
  tokens: TokenService;
  authn: Authenticator;
  /** Rate limits shared by REST and every WebSocket connection (auth/limits.ts). */
  limits: Limits;
  ssh: SshLogin;
  adminLinks: AdminLinks;
  oidc: OidcVerifier | null;
  pepper: Uint8Array;
  clock: () => number;
  skillDocUrl: string;
  wsUrl: string;
  serverKey: { seed: Uint8Array; publicKey: Uint8Array };
  /** `ssh-ed25519 …` line of the room CA (the server key). */
  caPublicLine: string;
  /** The protocol modules this server runs, by protocol name (protocols/registry.ts). */
  modules: ReadonlyMap<string, ProtocolModule>;
  /** The model-driver host once registered (drivers/), else null: rooms with `drivers` are refused. */
  drivers: RoomDrivers | null;
  /** Where provider settings and module options come from (process.env unless given). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Modules' say over the public join (routes/join.ts): each returns why a principal may not take a
   * seat in a room (a 403 SEAT_GIVEN with that reason), or null. A module adds its own in `routes`
   * (a tournament's match rooms, whose seats it gives, never a stranger).
   */
  joinGuards: JoinGuard[];
  /**
   * Modules' names for a room's seats (routes/seat-labels.ts), shown by GET /v1/rooms/:id: each
   * returns labels for the rooms it knows (a tournament's match rooms), else null. Only what is
   * already public, and nothing for seats anonymous by design. A module adds its own in `routes`.
   */
  seatLabelers: SeatLabeler[];
}

/** Why `principal` may not join `roomId` through the public join, or null when it may. */
export type JoinGuard = (roomId: string, principal: string) => Promise<string | null>;

/** Who sits in each seat of `room` (seat → label), or null when this labeler does not name them. */
export type SeatLabeler = (room: RoomInfo) => Promise<Readonly<Record<string, SeatLabel>> | null>;

/** What room creation needs of the driver host. */
export interface RoomDrivers {
  /** Throws a 400 (BAD_DRIVERS) for specs this server cannot play; called before the room exists. */
  check(protocol: string, specs: Drivers): void;
  attach(
    roomId: string,
    specs: Record<string, DriverSpec>,
    roomBudget: { maxTokens?: number; maxCostUsd?: number; maxCalls?: number } | undefined,
  ): Promise<void>;
  /** The seats a driver plays, per room (a room with none is absent). */
  drivenSeats(roomIds: readonly string[]): Promise<Map<string, Set<string>>>;
}

export function requireAuth(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new ApiError(401, 'UNAUTHORIZED', 'authentication required');
  return req.auth;
}

export function requireAdmin(req: FastifyRequest): AuthContext {
  const a = requireAuth(req);
  if (a.role !== 'admin') throw new ApiError(403, 'FORBIDDEN', 'admin only');
  return a;
}
