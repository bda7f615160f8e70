import { timerDelay } from '@db8/core';
import type { Bus, ModuleRuntime as Runtime } from '@db8/server/kit';
import { runtimeError } from '@db8/server/kit';
import { z } from 'zod';
import type { BridgeEvent, QuestionBridge } from './bridge.ts';
import { MatrixClient, MatrixError, type RetryPolicy } from './matrix-client.ts';
import { aliasLocalpart, contentOf, roomSettings, txnIdOf } from './matrix-mapping.ts';
import { type RoomWatch, watchQuestionRooms } from './watch.ts';

/**
 * The Matrix bridge (seed 003: Matrix is the conversation layer's baseline). For each answer room
 * this node relays (by default the questions it asked), it creates or joins the Matrix room whose
 * alias is derived from the question id, posts the question, then each answer (kind, speaker,
 * origin class, gateway), summary and the close as m.room.message, each with a transaction id
 * derived from its entry. Observer only: Matrix users cannot post in these rooms (power levels), and
 * nothing from Matrix enters a db8 room. The bridge never redacts: the proposal asks for room history
 * to be retained for summary writing and audit; the close is posted, not the history erased.
 */

export const MatrixEnvSchema = z
  .object({
    /** The homeserver's client-server base URL, e.g. https://matrix.example.org. */
    DB8_SWARM_MATRIX_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** An access token of the bridge's Matrix user (preferred)… */
    DB8_SWARM_MATRIX_TOKEN: z.string().min(1).optional(),
    /** …or its user (localpart or @user:server) and password, logging in as a fixed device. */
    DB8_SWARM_MATRIX_USER: z.string().min(1).max(255).optional(),
    DB8_SWARM_MATRIX_PASSWORD: z.string().min(1).optional(),
    /** The device to log in as (transaction ids are per device: keep it across restarts). */
    DB8_SWARM_MATRIX_DEVICE_ID: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .default('DB8SWARMBRIDGE'),
    /** Prefix of every room alias localpart. */
    DB8_SWARM_MATRIX_ALIAS_PREFIX: z
      .string()
      .regex(/^[a-z0-9._-]{0,32}$/)
      .default('swarm.'),
    /** `asked`: rooms of questions this node asked (one relaying node per room); `all`: every room. */
    DB8_SWARM_MATRIX_RELAY: z.enum(['asked', 'all']).default('asked'),
  })
  .refine(
    (e) =>
      !e.DB8_SWARM_MATRIX_URL ||
      e.DB8_SWARM_MATRIX_TOKEN ||
      (e.DB8_SWARM_MATRIX_USER && e.DB8_SWARM_MATRIX_PASSWORD),
    'DB8_SWARM_MATRIX_URL needs DB8_SWARM_MATRIX_TOKEN, or DB8_SWARM_MATRIX_USER and _PASSWORD',
  );

export interface MatrixBridgeOptions {
  baseUrl: string;
  credentials: { accessToken: string } | { user: string; password: string; deviceId: string };
  aliasPrefix: string;
  relay: 'asked' | 'all';
  /** This node's `sender/node-id` (the `asked` rule). */
  nodeId: string;
  retry?: Partial<RetryPolicy>;
}

/** The bridge's settings from the module's environment; null when DB8_SWARM_MATRIX_URL is unset. */
export function matrixOptions(
  env: Readonly<Record<string, string | undefined>>,
  nodeId: string,
): MatrixBridgeOptions | null {
  const picked = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('DB8_SWARM_MATRIX_')));
  const r = MatrixEnvSchema.safeParse(picked);
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`).join('; ');
    throw runtimeError('BAD_CONFIG', `swarm Matrix bridge settings: ${where}`);
  }
  const e = r.data;
  if (!e.DB8_SWARM_MATRIX_URL) return null;
  return {
    baseUrl: e.DB8_SWARM_MATRIX_URL,
    credentials: e.DB8_SWARM_MATRIX_TOKEN
      ? { accessToken: e.DB8_SWARM_MATRIX_TOKEN }
      : {
          user: e.DB8_SWARM_MATRIX_USER as string,
          password: e.DB8_SWARM_MATRIX_PASSWORD as string,
          deviceId: e.DB8_SWARM_MATRIX_DEVICE_ID,
        },
    aliasPrefix: e.DB8_SWARM_MATRIX_ALIAS_PREFIX,
    relay: e.DB8_SWARM_MATRIX_RELAY,
    nodeId,
  };
}

interface Relayed {
  alias: string | null;
  matrixRoom: string | null;
  queue: BridgeEvent[];
  running: boolean;
}

/** A delivery that keeps failing after the client's own retries waits this long at most between tries. */
const REDELIVER_MAX_MS = 30_000;

export class MatrixBridge implements QuestionBridge {
  readonly name = 'matrix';
  readonly client: MatrixClient;
  /** Relayed items, items the homeserver refused for good (logged, skipped), rooms not relayed here. */
  readonly counts = { relayed: 0, refused: 0, notRelayed: 0 };
  private readonly rooms = new Map<string, Relayed>();
  private readonly connected: Promise<void>;
  private stopped = false;
  private failed = false;

  constructor(
    private readonly opts: MatrixBridgeOptions,
    private readonly log: (msg: string) => void,
  ) {
    this.client = new MatrixClient({
      baseUrl: opts.baseUrl,
      log,
      ...(opts.retry ? { retry: opts.retry } : {}),
    });
    this.connected = this.retrying('connect', () => this.client.connect(opts.credentials));
    // Refused for good (a bad token or password): say so once, then drop what comes.
    this.connected.catch((err: Error) => {
      this.failed = true;
      this.rooms.clear();
      if (!this.stopped) this.log(`matrix: bridge off, the homeserver refused it: ${err.message}`);
    });
  }

  deliver(e: BridgeEvent): void {
    if (this.stopped || this.failed) return;
    if (e.kind === 'open') {
      if (this.opts.relay === 'asked' && e.question.askerNode !== this.opts.nodeId) {
        this.counts.notRelayed++;
        return;
      }
      if (!this.rooms.has(e.roomId))
        this.rooms.set(e.roomId, { alias: null, matrixRoom: null, queue: [], running: false });
    }
    const r = this.rooms.get(e.roomId);
    if (!r) return;
    r.queue.push(e);
    if (!r.running) void this.pump(e.roomId, r);
  }

  /** One room's items in room order, one at a time; a failing item is retried, not skipped. */
  private async pump(roomId: string, r: Relayed): Promise<void> {
    r.running = true;
    try {
      await this.connected;
      for (let e = r.queue[0]; e && !this.stopped; e = r.queue[0]) {
        try {
          await this.retrying(`${e.kind} ${roomId}`, () => this.relay(r, e));
          this.counts.relayed++;
        } catch (err) {
          if (this.stopped) return;
          this.counts.refused++;
          this.log(`matrix: ${e.kind} of ${roomId} refused: ${(err as Error).message}`);
        }
        r.queue.shift();
        if (e.kind === 'close') this.rooms.delete(roomId);
      }
    } catch {
      // stopped before connecting
    } finally {
      r.running = false;
    }
  }

  private async relay(r: Relayed, e: BridgeEvent): Promise<void> {
    if (e.kind === 'open') {
      const { id, created } = await this.ensureRoom(r, e);
      r.matrixRoom = id;
      // A room found open at start was announced before a restart, unless its Matrix room is new.
      if (e.resumed && !created) return;
    }
    // Final (4xx): without its room no item of this question can be relayed.
    if (!r.matrixRoom) throw new MatrixError(404, 'DB8_NO_MATRIX_ROOM', 'the question has no Matrix room');
    await this.client.send(r.matrixRoom, 'm.room.message', txnIdOf(e), contentOf(e));
  }

  /** Create the aliased room, or join it when it exists (another node or an earlier run made it). */
  private async ensureRoom(
    r: Relayed,
    e: Extract<BridgeEvent, { kind: 'open' }>,
  ): Promise<{ id: string; created: boolean }> {
    const localpart = aliasLocalpart(this.opts.aliasPrefix, e.question.id);
    r.alias = `#${localpart}:${this.client.serverName}`;
    const known = await this.client.resolveAlias(r.alias);
    if (known) return { id: await this.client.join(known), created: false };
    try {
      return { id: await this.client.createRoom(roomSettings(e.question, localpart)), created: true };
    } catch (err) {
      // Made meanwhile (or by our own earlier try whose answer was lost): join it.
      if (err instanceof MatrixError && err.errcode === 'M_ROOM_IN_USE')
        return { id: await this.client.join(r.alias), created: false };
      throw err;
    }
  }

  /**
   * Runs `fn` until it succeeds: a refusal (4xx other than 429) is final and thrown; a failure
   * after the client's own retries (homeserver down) is tried again with a growing pause.
   */
  private async retrying<T>(what: string, fn: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await fn();
      } catch (err) {
        const final =
          err instanceof MatrixError && err.status >= 400 && err.status < 500 && err.status !== 429;
        if (final || this.stopped) throw err;
        const wait = Math.min(REDELIVER_MAX_MS, 1000 * 2 ** n);
        this.log(`matrix: ${what} failed (${(err as Error).message}); again in ${wait} ms`);
        await sleep(wait);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.client.close();
  }
}

// Unref'd: a pause between redeliveries never keeps a stopping process alive.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, timerDelay(ms)).unref());

export interface RunningMatrixBridge {
  bridge: MatrixBridge;
  watch: RoomWatch;
  stop(): Promise<void>;
}

/** Starts the bridge when configured (DB8_SWARM_MATRIX_URL), watching this node's question rooms. */
export function startMatrixBridge(
  runtime: Runtime,
  bus: Bus,
  env: Readonly<Record<string, string | undefined>>,
  nodeId: string,
  log: (msg: string) => void,
): RunningMatrixBridge | null {
  const opts = matrixOptions(env, nodeId);
  if (!opts) return null;
  const bridge = new MatrixBridge(opts, log);
  const watch = watchQuestionRooms(runtime, bus, (e) => bridge.deliver(e));
  return {
    bridge,
    watch,
    async stop() {
      watch.stop();
      await bridge.stop();
    },
  };
}
