import { truncateCodePoints } from '@db8/core';
import {
  AckSchema,
  type ActionBody,
  AdminRoomsResponseSchema,
  AgentProfileSchema,
  AgentsResponseSchema,
  AuthProvidersResponseSchema,
  type ChallengeBody,
  ChallengeResponseSchema,
  CheckpointsResponseSchema,
  type CreateAgentBody,
  CreateAgentResponseSchema,
  type CreateInviteBody,
  type CreateRoomBody,
  type EndRoomBody,
  EndRoomResponseSchema,
  EntriesResponseSchema,
  type EntryWire,
  type ExportQuery,
  HealthResponseSchema,
  InviteResponseSchema,
  type JoinBody,
  JoinResponseSchema,
  KeysResponseSchema,
  ListRoomsResponseSchema,
  LogoutResponseSchema,
  MeResponseSchema,
  PROTOCOL_VERSION,
  ProofResponseSchema,
  ReadyResponseSchema,
  RoomSchema,
  SessionResponseSchema,
  StateSchema,
  type TokenBody,
  type VerifyBody,
} from '@db8/server/schemas';
import type { z } from 'zod';
import { Db8Error, errorFromBody, MAX_IDEMPOTENT_ATTEMPTS, retryDelayMs, sleep } from './errors.ts';
import { lines } from './lines.ts';
import { type RoomEvent, RoomSocket, type RoomSocketOptions } from './socket/rooms.ts';
import { toWsUrl } from './socket/websocket.ts';
import { type EventsOptions, type SseEvent, sseEvents } from './sse.ts';
import { Db8Socket, type SocketOptions } from './ws.ts';

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:8787` */
  baseUrl: string;
  /** Session token, API key or OIDC token sent as `Authorization: Bearer`. */
  token?: string | null;
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST';

/**
 * Typed REST client. Every response is parsed with the server's own zod schema, so a client and a
 * server that disagree fail loudly at the boundary instead of deep in the caller.
 */
export class Db8Client {
  readonly baseUrl: string;
  token: string | null;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token ?? null;
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** A copy of this client using another credential. */
  withToken(token: string | null): Db8Client {
    return new Db8Client({ baseUrl: this.baseUrl, token, fetch: this.fetchImpl });
  }

  /** One request with this client's credential (errors as Db8Error); for routes without a typed method. */
  async raw(method: Method, path: string, body?: unknown, token = this.token): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await this.fetchImpl(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) {
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the status
      }
      throw errorFromBody(res.status, parsed, res.statusText || truncateCodePoints(text, 200));
    }
    return res;
  }

  private async call<S extends z.ZodType>(
    schema: S,
    method: Method,
    path: string,
    body?: unknown,
    token?: string | null,
  ): Promise<z.output<S>> {
    const res = await this.raw(method, path, body, token === undefined ? this.token : token);
    const json: unknown = await res.json();
    const r = schema.safeParse(json);
    if (!r.success)
      throw new Db8Error(res.status, 'BAD_RESPONSE', `unexpected response from ${path}`, r.error.issues);
    return r.data;
  }

  /**
   * A typed call to a route with no method here (e.g. a protocol module's own routes under
   * `/v1/<protocol>/…`): the same credential, errors and reply check as every other method.
   */
  request<S extends z.ZodType>(
    schema: S,
    method: Method,
    path: string,
    body?: unknown,
  ): Promise<z.output<S>> {
    return this.call(schema, method, path, body);
  }

  // ---------- health ----------
  health() {
    return this.call(HealthResponseSchema, 'GET', '/healthz');
  }
  ready() {
    return this.call(ReadyResponseSchema, 'GET', '/readyz');
  }
  /** The server's public checkpoint-signing key (note verifier key, SSH line, allowed_signers line). */
  keys() {
    return this.call(KeysResponseSchema, 'GET', '/v1/keys', undefined, null);
  }

  // ---------- access ----------
  registerAgent(body: CreateAgentBody = {}) {
    return this.call(CreateAgentResponseSchema, 'POST', '/v1/agents', body);
  }
  /** API key -> session token. Does not change this client's token; use withToken / token =. */
  sessionFromApiKey(body: TokenBody) {
    return this.call(SessionResponseSchema, 'POST', '/v1/auth/token', body, null);
  }
  challenge(body: ChallengeBody = {}) {
    return this.call(ChallengeResponseSchema, 'POST', '/v1/auth/challenge', body, null);
  }
  verify(body: VerifyBody) {
    return this.call(SessionResponseSchema, 'POST', '/v1/auth/verify', body, null);
  }
  /** Exchange the one-time admin link token (the part after `#token=`). */
  adminLogin(token: string) {
    return this.call(SessionResponseSchema, 'POST', '/v1/auth/login', { token }, null);
  }
  refreshSession() {
    return this.call(SessionResponseSchema, 'POST', '/v1/auth/session');
  }
  me() {
    return this.call(MeResponseSchema, 'GET', '/v1/auth/me');
  }
  /** How people sign in from the web app: the OIDC issuer and client id, or null. */
  authProviders() {
    return this.call(AuthProvidersResponseSchema, 'GET', '/v1/auth/providers', undefined, null);
  }
  /** End this session on the server: its token and every refresh of it answer 401 SESSION_REVOKED. */
  logout() {
    return this.call(LogoutResponseSchema, 'POST', '/v1/auth/logout');
  }

  // ---------- agents ----------
  /** Agents and people with a record (closed rooms; an admin's list counts open ones too). */
  agents(q: { limit?: number } = {}) {
    return this.call(AgentsResponseSchema, 'GET', `/v1/agents${query(q)}`);
  }
  /** One agent's profile: kind, each protocol's section, model usage (404 without a public record). */
  agent(id: string) {
    return this.call(AgentProfileSchema, 'GET', `/v1/agents/${encodeURIComponent(id)}`);
  }

  // ---------- rooms ----------
  createRoom(body: CreateRoomBody) {
    return this.call(RoomSchema, 'POST', '/v1/rooms', body);
  }
  listRooms(q: { protocol?: string; status?: 'open' | 'closed'; limit?: number; cursor?: string } = {}) {
    return this.call(ListRoomsResponseSchema, 'GET', `/v1/rooms${query(q)}`);
  }
  getRoom(roomId: string) {
    return this.call(RoomSchema, 'GET', room(roomId));
  }
  /** The room monitor (admin): every room (live ones unless `status` says) with its seats' holders. */
  adminRooms(
    q: { status?: 'open' | 'closed' | 'all'; protocol?: string; limit?: number; cursor?: string } = {},
  ) {
    return this.call(AdminRoomsResponseSchema, 'GET', `/v1/admin/rooms${query(q)}`);
  }
  /** End a room now, whatever its protocol (admin): its close entry records who and why. */
  endRoom(roomId: string, body: NonNullable<EndRoomBody> = {}) {
    return this.call(
      EndRoomResponseSchema,
      'POST',
      `/v1/admin/rooms/${encodeURIComponent(roomId)}/end`,
      body,
    );
  }
  createInvite(roomId: string, body: CreateInviteBody = {}) {
    return this.call(InviteResponseSchema, 'POST', `${room(roomId)}/invites`, body);
  }
  /** Take a seat. Sends this client's protocol version; answers OUTDATED_CLIENT when too old. */
  join(roomId: string, body: JoinBody = {}) {
    return this.call(JoinResponseSchema, 'POST', `${room(roomId)}/join`, {
      client_protocol_version: PROTOCOL_VERSION,
      ...body,
    });
  }
  state(roomId: string) {
    return this.call(StateSchema, 'GET', `${room(roomId)}/state`);
  }
  /**
   * Act in a room. A nonce is added if missing, so resending is safe: a refusal a retry cures
   * (`RATE_LIMITED`, `CONFLICT_RETRY_EXHAUSTED`) is retried with the same nonce, a few times.
   */
  async act(roomId: string, body: ActionBody) {
    const sent = { ...body, client_nonce: body.client_nonce ?? crypto.randomUUID() };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.call(AckSchema, 'POST', `${room(roomId)}/actions`, sent);
      } catch (e) {
        const wait = retryDelayMs(e);
        if (wait === null || attempt >= MAX_IDEMPOTENT_ATTEMPTS) throw e;
        await sleep(wait);
      }
    }
  }
  entries(roomId: string, q: { fromSeq?: number; limit?: number } = {}) {
    return this.call(EntriesResponseSchema, 'GET', `${room(roomId)}/entries${query(q)}`);
  }
  /** Every entry from `fromSeq`, page by page. */
  async *allEntries(roomId: string, fromSeq = 0, pageSize = 500): AsyncGenerator<EntryWire> {
    let next: number | null = fromSeq;
    while (next !== null) {
      const page = await this.entries(roomId, { fromSeq: next, limit: pageSize });
      for (const e of page.entries) yield e;
      next = page.next_seq;
    }
  }
  proof(roomId: string, seq: number) {
    return this.call(ProofResponseSchema, 'GET', `${room(roomId)}/entries/${seq}/proof`);
  }
  checkpoints(roomId: string) {
    return this.call(CheckpointsResponseSchema, 'GET', `${room(roomId)}/checkpoints`);
  }
  /**
   * The room's JSONL export, one parsed record at a time: as this token may see it, or as the viewer
   * class `as` (403 FORBIDDEN when the token does not grant it).
   */
  async *export(roomId: string, q: ExportQuery = {}): AsyncGenerator<Record<string, unknown>> {
    const res = await this.raw('GET', `${room(roomId)}/export${query(q)}`);
    for await (const line of lines(res)) {
      if (line.trim() !== '') yield JSON.parse(line) as Record<string, unknown>;
    }
  }

  // ---------- realtime ----------
  /**
   * Server-sent events for a room, resuming after `since` (or Last-Event-ID); `state: false`
   * follows entries only (no `state` events).
   */
  events(
    roomId: string,
    opts: Omit<EventsOptions, 'url' | 'token' | 'fetch'> & { token?: string | null; state?: boolean } = {},
  ) {
    const { state, ...rest } = opts;
    const token = opts.token === undefined ? this.token : opts.token;
    return sseEvents({
      ...rest,
      url: `${this.baseUrl}${room(roomId)}/events${state === false ? '?state=0' : ''}`,
      token,
      fetch: this.fetchImpl,
    }) as AsyncGenerator<SseEvent>;
  }

  /** One recording WebSocket (no reconnect): say hello and resolve on `welcome`. */
  socket(opts: Omit<SocketOptions, 'url'> = {}) {
    return Db8Socket.connect({ url: `${toWsUrl(this.baseUrl)}/v1/ws`, token: this.token, ...opts });
  }

  /** The reconnecting room socket: resolves once welcomed; follow rooms with `subscribe`/`follow`. */
  live(opts: Omit<RoomSocketOptions, 'url'> = {}) {
    return RoomSocket.connect({ url: `${toWsUrl(this.baseUrl)}/v1/ws`, token: this.token, ...opts });
  }

  /**
   * Follow one room over its own reconnecting socket: the entries after `since` (-1: all; omitted:
   * from now), each once and in order, and the newest state, until the loop stops, `signal` aborts
   * (ends quietly) or the server refuses for good (throws its typed error).
   */
  async *follow(
    roomId: string,
    opts: { since?: number; signal?: AbortSignal } & Omit<RoomSocketOptions, 'url' | 'token'> = {},
  ): AsyncGenerator<RoomEvent> {
    const { since, signal, ...rest } = opts;
    if (signal?.aborted) return;
    const sock = await this.live(rest);
    const stop = () => sock.close();
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      yield* sock.follow(roomId, since !== undefined ? { since } : {});
    } finally {
      signal?.removeEventListener('abort', stop);
      sock.close();
    }
  }
}

const room = (id: string) => `/v1/rooms/${encodeURIComponent(id)}`;

function query(q: Record<string, string | number | undefined>): string {
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
