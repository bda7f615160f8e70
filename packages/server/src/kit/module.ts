import type { Script } from '@db8/agents';
import type { AnyProtocol } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { SeatAgent } from '../drivers/agent.ts';
import type { Drivers } from '../drivers/spec.ts';
import type { RestCaller, RestResult } from '../mcp/rest.ts';
import type { RoomEventProducer } from '../realtime/room-events.ts';
import type { AppContext } from '../routes/context.ts';
import type { JoinEffect, JoinInput } from '../runtime/types.ts';
import type { SqlDriver } from '../store/driver.ts';
import type { Migration } from '../store/migrate.ts';
import type { AgentRecordSource } from './agent-record.ts';
import type { ModuleRuntime } from './runtime.ts';
import type { WireCodec } from './wire.ts';

/**
 * A protocol module: everything the server needs to know about one protocol beyond its pure rules,
 * in one object (Colyseus' room definitions and Fastify plugins are the models). The server core
 * iterates the registry (registry.ts) and never names a protocol; adding a protocol is one folder
 * here and one line in the registry (docs/protocols.md).
 */
export interface ProtocolModule {
  /** The pure rules (packages/protocols/<name>). `protocol.name` is the registry key. */
  protocol: AnyProtocol;
  /**
   * The module's own tables, applied when it is mounted (after the platform's, each once by name
   * across the database's life; names share one namespace with the platform's `NNN_name.sql`).
   */
  migrations?: readonly Migration[];
  /**
   * SSH CAs (raw Ed25519 public keys) whose user certificates for `<seat>@<room>` log in to a room
   * of this protocol, besides the server's room CA: read from the room's config.
   */
  loginCaKeys?: (config: unknown) => readonly Uint8Array[];
  /**
   * The create-room `config` this protocol accepts, as documented in the OpenAPI at /docs
   * (defaults to `protocol.configSchema`; the runtime still validates with the protocol's own).
   */
  createSchema?: z.ZodType;
  /** Fills server-side parts of a new room's config before the protocol validates it. */
  prepareConfig?(config: unknown, ctx: PrepareContext): unknown | Promise<unknown>;
  /**
   * Actions written in the join's own commit, right after the join entry (e.g. debate binds the
   * principal's identity to its anonymous seat). A rejoin of a held seat calls nothing.
   */
  onJoin?(input: JoinInput): readonly JoinEffect[];
  /** The model agent that plays a driver-held seat of this protocol. */
  agent?: SeatAgent;
  /**
   * A driven seat is joined by a principal of its own (`drv_…`, named after the driver and seat,
   * `scripted` in its metadata for the scripted cast), so the protocol sees a holder (a debate's
   * unmask names it and its ratings rate it). Off: driven seats stay without a holder.
   */
  holdDrivenSeats?: boolean;
  /**
   * What the `scripted` provider plays for a seat with this role (labelled scripted in every
   * record). Every role the protocol has must be covered, so a scripted seat of any role works.
   */
  scripted?(role: string, env: Env): Script;
  /**
   * A Fastify plugin for the protocol's own routes (/v1/<protocol>/…, or a seed's fixed paths) and
   * its background work (bus subscriptions, closed with the app, e.g. in an onClose hook).
   */
  routes?(app: FastifyInstance, ctx: ModuleContext): Promise<void> | void;
  /** Markdown for agents: how to play this protocol (served per protocol and linked from /skill.md). */
  skillDoc?(ctx: { publicUrl: string }): string;
  /**
   * Its typed realtime events (debate: seed 000's phase, timer, submission, vote), sent over SSE
   * `/events?room_id=` and WebSocket subscriptions with `events: true`, from each viewer's views.
   */
  events?: RoomEventProducer;
  /** A wire codec on the generic realtime connection (poker's seed-002 frames). */
  wire?: WireCodec;
  /**
   * Its rooms take their time from outside (a replicated stream): the deadline scheduler never
   * ticks them; the module's own background work does, with the source's instant.
   */
  externalClock?: boolean;
  /** Extra JSON Schemas (its own message formats) served under its name in /protocol.json. */
  protocolJson?(): Record<string, unknown>;
  /**
   * False when its rooms take no actions through the generic act route (e.g. they are folded from
   * a replicated stream): MCP then offers no `act_<protocol>` tool, only the module's `mcpTools`.
   */
  actTool?: false;
  /** The module's own MCP tools, each run through its REST routes with the caller's credentials. */
  mcpTools?: readonly ModuleTool[];
  /**
   * Its section of an agent's profile (GET /v1/agents/:id): placements, results, wins, from the
   * seats the platform hands it — only those the asker may link to the agent (kit/agent-record.ts).
   */
  agentRecord?: AgentRecordSource;
}

/** One MCP tool a module adds (mcp/tools.ts registers it; the answer is the REST body or error). */
export interface ModuleTool {
  /** Letters, digits, `_` and `-`; unique across modules. */
  name: string;
  title: string;
  description: string;
  /** Its arguments as a zod object shape (checked by the MCP SDK before `call`; unknown ones refused). */
  inputSchema: z.ZodRawShape;
  readOnly?: boolean;
  call(args: Record<string, unknown>, rest: RestCaller): Promise<RestResult<unknown>>;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface PrepareContext {
  /** `ssh-ed25519 …` line of the server's room CA. */
  caPublicLine: string;
  /** Driven seats asked for at creation (already validated), or {}. */
  drivers: Drivers;
  env: Env;
  /** The server's database (a module may read its own tables, e.g. deliberation's lesson bank). */
  db: SqlDriver;
}

export type { JoinEffect, JoinInput };

/** The app's services a module uses: a named slice of the routes' context, not all of it. */
export type ModuleHost = Pick<
  AppContext,
  | 'config'
  | 'store'
  | 'bus'
  | 'clock'
  | 'serverKey'
  | 'caPublicLine'
  | 'drivers'
  | 'tokens'
  | 'authn'
  | 'joinGuards'
  | 'seatLabelers'
>;

/** What a module's `routes` is given: the host's services, the runtime's module slice, its env. */
export interface ModuleContext {
  app: ModuleHost;
  runtime: ModuleRuntime;
  env: Env;
}
