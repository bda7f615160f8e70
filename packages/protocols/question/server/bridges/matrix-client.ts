import { timerDelay, truncateCodePoints } from '@db8/core';
import { z } from 'zod';

/**
 * The few Matrix client-server calls (v3) the swarm bridge makes: password login (or a given access
 * token, checked with whoami), createRoom, alias lookup, join, and send with a transaction id. Every
 * answer is zod-checked. A 429 M_LIMIT_EXCEEDED is retried after its retry_after_ms (or Retry-After,
 * or the backoff); network errors, timeouts and 5xx are retried with capped exponential backoff and
 * jitter. A send keeps its txnId across retries, so the homeserver turns a retry after a lost answer
 * into the same event, never a second one.
 */

export interface RetryPolicy {
  /** Tries per call, rate-limited answers included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** Per-request timeout. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseMs: 250, maxMs: 15_000, timeoutMs: 20_000 };

/** A standard Matrix error answer ({errcode, error}) or an unusable one (errcode M_BAD_RESPONSE). */
export class MatrixError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(`${status} ${errcode}: ${message}`);
    this.name = 'MatrixError';
  }
}

const ErrorBody = z.object({
  errcode: z.string().min(1),
  error: z.string().optional(),
  retry_after_ms: z.number().int().nonnegative().optional(),
});
const UserId = z.string().regex(/^@[^:]+:.+$/, 'a Matrix user id');
const RoomId = z.string().regex(/^![^:]+:.+$/, 'a Matrix room id');
const Whoami = z.object({ user_id: UserId, device_id: z.string().optional() });
const Login = z.object({ user_id: UserId, access_token: z.string().min(1), device_id: z.string().min(1) });
const RoomAnswer = z.object({ room_id: RoomId });
const EventAnswer = z.object({ event_id: z.string().min(1) });

export interface CreateRoomBody {
  room_alias_name: string;
  name: string;
  topic: string;
  preset: 'private_chat' | 'public_chat';
  visibility: 'private' | 'public';
  creation_content: { 'm.federate': boolean };
  power_level_content_override: Record<string, unknown>;
}

export interface MatrixClientOptions {
  baseUrl: string;
  retry?: Partial<RetryPolicy>;
  /** Rate-limit and retry notices (ops). */
  log?: (msg: string) => void;
}

type Credentials = { accessToken: string } | { user: string; password: string; deviceId: string };

export class MatrixClient {
  /** Counters for operators and tests. */
  readonly stats = { requests: 0, rateLimited: 0, retried: 0 };
  private readonly retry: RetryPolicy;
  private readonly base: string;
  private readonly log: (msg: string) => void;
  private token = '';
  userId = '';
  deviceId = '';
  private closed = false;
  private readonly aborts = new Set<AbortController>();

  constructor(opts: MatrixClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.log = opts.log ?? (() => {});
  }

  /** The server name part of this client's user id: the alias domain of rooms it creates. */
  get serverName(): string {
    return this.userId.slice(this.userId.indexOf(':') + 1);
  }

  /**
   * With a token: whoami. With a password: login with a fixed device id — transaction ids are
   * scoped to a device, so a restarted node must come back as the same device.
   */
  async connect(c: Credentials): Promise<void> {
    if ('accessToken' in c) {
      this.token = c.accessToken;
      const me = await this.call('GET', '/account/whoami', Whoami);
      this.userId = me.user_id;
      this.deviceId = me.device_id ?? '';
      return;
    }
    const r = await this.call('POST', '/login', Login, {
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: c.user },
      password: c.password,
      device_id: c.deviceId,
      initial_device_display_name: 'db8 swarm bridge',
    });
    this.token = r.access_token;
    this.userId = r.user_id;
    this.deviceId = r.device_id;
  }

  async createRoom(body: CreateRoomBody): Promise<string> {
    return (await this.call('POST', '/createRoom', RoomAnswer, body)).room_id;
  }

  /** The room an alias names, or null when the homeserver does not know it (404 M_NOT_FOUND). */
  async resolveAlias(alias: string): Promise<string | null> {
    try {
      return (await this.call('GET', `/directory/room/${encodeURIComponent(alias)}`, RoomAnswer)).room_id;
    } catch (err) {
      if (err instanceof MatrixError && err.errcode === 'M_NOT_FOUND') return null;
      throw err;
    }
  }

  async join(roomIdOrAlias: string): Promise<string> {
    return (await this.call('POST', `/join/${encodeURIComponent(roomIdOrAlias)}`, RoomAnswer, {})).room_id;
  }

  /** PUT /rooms/{roomId}/send/{eventType}/{txnId}: idempotent per (device, txnId). */
  async send(
    roomId: string,
    eventType: string,
    txnId: string,
    content: Record<string, unknown>,
  ): Promise<string> {
    const path = `/rooms/${encodeURIComponent(roomId)}/send/${encodeURIComponent(eventType)}/${encodeURIComponent(txnId)}`;
    return (await this.call('PUT', path, EventAnswer, content)).event_id;
  }

  /** Aborts requests in flight and stops retrying. */
  close(): void {
    this.closed = true;
    for (const a of this.aborts) a.abort();
  }

  private async call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new MatrixError(0, 'M_CLIENT_CLOSED', 'the bridge is stopping');
      const step = await this.once(method, path, schema, body, attempt);
      if ('value' in step) return step.value;
      if (attempt >= this.retry.attempts || this.closed) throw step.err;
      this.stats.retried++;
      this.log(`matrix: ${method} ${path}: ${step.err.message}; retrying in ${step.wait} ms`);
      await new Promise((r) => setTimeout(r, timerDelay(step.wait)));
    }
  }

  /** One request: its value, a retryable failure with the wait before the next try, or a throw. */
  private async once<T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    body: unknown,
    attempt: number,
  ): Promise<{ value: T } | { wait: number; err: Error }> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timerDelay(this.retry.timeoutMs));
    this.aborts.add(ac);
    let res: Response;
    let text: string;
    try {
      this.stats.requests++;
      res = await fetch(`${this.base}/_matrix/client/v3${path}`, {
        method,
        headers: {
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: ac.signal,
      });
      text = await res.text();
    } catch (err) {
      // Network error or timeout: the request may have landed. Only idempotent calls are made (send
      // by txnId, join) and createRoom, whose alias turns a repeat into M_ROOM_IN_USE.
      return { wait: this.backoff(attempt), err: err as Error };
    } finally {
      clearTimeout(timer);
      this.aborts.delete(ac);
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // a proxy's HTML error page: judged by its status below
    }
    if (res.ok) {
      const r = schema.safeParse(json);
      if (!r.success)
        throw new MatrixError(res.status, 'M_BAD_RESPONSE', `${method} ${path}: ${r.error.message}`);
      return { value: r.data };
    }
    const e = ErrorBody.safeParse(json);
    const err = e.success
      ? new MatrixError(res.status, e.data.errcode, e.data.error ?? '', e.data.retry_after_ms)
      : new MatrixError(res.status, 'M_UNKNOWN', truncateCodePoints(text, 200));
    if (res.status === 429 || err.errcode === 'M_LIMIT_EXCEEDED') {
      this.stats.rateLimited++;
      const header = Number(res.headers.get('retry-after'));
      const hinted = err.retryAfterMs ?? (Number.isFinite(header) && header > 0 ? header * 1000 : null);
      return { wait: Math.min(hinted ?? this.backoff(attempt), this.retry.maxMs * 4), err };
    }
    if (res.status >= 500) return { wait: this.backoff(attempt), err };
    throw err;
  }

  /** Capped exponential backoff with jitter (half fixed, half random). */
  private backoff(attempt: number): number {
    const cap = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempt - 1));
    return Math.round(cap / 2 + (Math.random() * cap) / 2);
  }
}
