// TEST DOUBLE — NOT A MATRIX HOMESERVER. A loopback HTTP server (node:http) speaking only the Matrix
// client-server calls the swarm bridge and its tests use: versions, login (m.login.password), whoami,
// capabilities, push rules (empty), createRoom (alias, preset, m.federate, power-level override),
// directory alias lookup, join (by id or alias), send with txnId (idempotent per user and device),
// redact (with txnId), filter upload/read, and long-poll /sync (since/timeout/filter: rooms, not_rooms,
// types, not_types, senders, not_senders, limit). Errors have the spec's shape {errcode, error} with
// M_MISSING_TOKEN/M_UNKNOWN_TOKEN (401), M_FORBIDDEN (403), M_NOT_FOUND (404), M_ROOM_IN_USE (400),
// M_LIMIT_EXCEEDED (429, retry_after_ms). No federation, no E2EE, no room versions beyond one event
// format, no state resolution, no presence, no media. Tests inject rate limits and lost responses.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';

import {
  collectSync,
  Filter,
  type FilterT,
  isMember,
  type Json,
  type MxEvent,
  type Room,
  type Session,
  type Stored,
} from './matrix-sync.ts';

export interface RequestRecord {
  method: string;
  path: string;
  /** When it arrived (ms) and who sent it, once the token is known. */
  at: number;
  user?: string;
  status: number;
  errcode?: string;
}
class MxError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Json = {},
  ) {
    super(message);
  }
}

const CreateRoomBody = z.looseObject({
  room_alias_name: z.string().optional(),
  name: z.string().optional(),
  topic: z.string().optional(),
  preset: z.enum(['private_chat', 'public_chat', 'trusted_private_chat']).optional(),
  visibility: z.enum(['public', 'private']).optional(),
  creation_content: z.looseObject({ 'm.federate': z.boolean().optional() }).optional(),
  power_level_content_override: z.record(z.string(), z.unknown()).optional(),
});
const LoginBody = z.looseObject({
  type: z.literal('m.login.password'),
  identifier: z.looseObject({ type: z.literal('m.id.user'), user: z.string() }).optional(),
  user: z.string().optional(),
  password: z.string(),
  device_id: z.string().optional(),
});
export interface Fault {
  method?: string;
  /** Matched against the path without the query. */
  path: RegExp;
  /** 429 M_LIMIT_EXCEEDED with this retry_after_ms; or drop the socket before (network error) or after processing (lost response). */
  kind: { limit: number } | 'drop-before' | 'drop-after';
  times: number;
}

export class TestHomeserver {
  readonly serverName: string;
  readonly requests: RequestRecord[] = [];
  private server: Server | null = null;
  private readonly passwords = new Map<string, string>();
  private readonly sessions = new Map<string, Session>();
  private readonly rooms = new Map<string, Room>();
  private readonly aliases = new Map<string, string>();
  private readonly log: Stored[] = [];
  private readonly txns = new Map<string, string>();
  private readonly filters = new Map<string, FilterT>();
  private readonly waiters = new Set<() => void>();
  private readonly faults: Fault[] = [];
  private readonly current = new WeakMap<IncomingMessage, RequestRecord>();
  private counter = 0;
  url = '';

  constructor(serverName = 'db8.test') {
    this.serverName = serverName;
  }

  /** A user with a password (login) and, optionally, a ready access token for `device`. */
  addUser(localpart: string, password: string, token?: string, device = 'TESTDEVICE'): string {
    const user = `@${localpart}:${this.serverName}`;
    this.passwords.set(user, password);
    if (token) this.sessions.set(token, { user, device });
    return user;
  }
  inject(f: Fault): void {
    this.faults.push(f);
  }
  /** The room's events in order (tests read what reached Matrix). */
  timeline(roomId: string): MxEvent[] {
    return this.log.filter((s) => s.room === roomId).map((s) => s.ev);
  }
  roomIdOf(alias: string): string | null {
    return this.aliases.get(alias) ?? null;
  }
  roomInfo(roomId: string): { federate: boolean; joinRule: unknown; alias: string | null } | null {
    const r = this.rooms.get(roomId);
    if (!r) return null;
    return {
      federate: r.federate,
      joinRule: r.state.get('m.room.join_rules\u0000')?.content.join_rule,
      alias: r.alias,
    };
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((ok) => this.server?.listen(0, '127.0.0.1', ok));
    const a = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${a.port}`;
    return this.url;
  }
  async stop(): Promise<void> {
    for (const w of this.waiters) w();
    this.server?.closeAllConnections();
    await new Promise<void>((ok) => this.server?.close(() => ok()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const fault = this.faults.find(
      (f) => f.times > 0 && f.path.test(u.pathname) && (!f.method || f.method === method),
    );
    if (fault) fault.times--;
    const record: RequestRecord = { method, path: u.pathname, status: 0, at: Date.now() };
    this.current.set(req, record);
    this.requests.push(record);
    if (fault?.kind === 'drop-before') return void req.socket.destroy();
    let status = 200;
    let body: unknown;
    try {
      if (fault && typeof fault.kind === 'object')
        throw new MxError(429, 'M_LIMIT_EXCEEDED', 'Too many requests', { retry_after_ms: fault.kind.limit });
      const raw = await readBody(req);
      body = await this.route(method, u, req, raw);
    } catch (err) {
      const e = err instanceof MxError ? err : new MxError(500, 'M_UNKNOWN', (err as Error).message);
      status = e.status;
      body = { errcode: e.errcode, error: e.message, ...e.extra };
      record.errcode = e.errcode;
    }
    record.status = status;
    if (fault?.kind === 'drop-after') return void req.socket.destroy();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private auth(req: IncomingMessage, u: URL): Session {
    const h = req.headers.authorization;
    const token = h?.startsWith('Bearer ') ? h.slice(7) : u.searchParams.get('access_token');
    if (!token) throw new MxError(401, 'M_MISSING_TOKEN', 'Missing access token');
    const s = this.sessions.get(token);
    if (!s) throw new MxError(401, 'M_UNKNOWN_TOKEN', 'Unknown access token', { soft_logout: false });
    const record = this.current.get(req);
    if (record) record.user = s.user;
    return s;
  }

  private async route(method: string, u: URL, req: IncomingMessage, raw: string): Promise<unknown> {
    const p = u.pathname;
    const json = (): unknown => {
      try {
        return raw ? JSON.parse(raw) : {};
      } catch {
        throw new MxError(400, 'M_NOT_JSON', 'Content not JSON.');
      }
    };
    const parse = <T>(schema: z.ZodType<T>): T => {
      const r = schema.safeParse(json());
      if (!r.success) throw new MxError(400, 'M_BAD_JSON', r.error.message);
      return r.data;
    };
    if (method === 'GET' && p === '/_matrix/client/versions')
      return { versions: ['v1.1', 'v1.5', 'v1.11'], unstable_features: {} };
    const m = p.match(/^\/_matrix\/client\/v3(\/.*)$/);
    if (!m) throw new MxError(404, 'M_UNRECOGNIZED', 'Unrecognized request');
    const path = m[1] as string;
    if (path === '/login' && method === 'GET') return { flows: [{ type: 'm.login.password' }] };
    if (path === '/login' && method === 'POST') {
      const b = parse(LoginBody);
      const name = b.identifier?.user ?? b.user ?? '';
      const user = name.startsWith('@') ? name : `@${name}:${this.serverName}`;
      if (this.passwords.get(user) !== b.password)
        throw new MxError(403, 'M_FORBIDDEN', 'Invalid username or password');
      const token = `syt_${randomBytes(12).toString('hex')}`;
      const device = b.device_id ?? `DEV${randomBytes(4).toString('hex').toUpperCase()}`;
      this.sessions.set(token, { user, device });
      return { user_id: user, access_token: token, device_id: device, home_server: this.serverName };
    }
    const s = this.auth(req, u);
    if (path === '/account/whoami') return { user_id: s.user, device_id: s.device, is_guest: false };
    if (path === '/capabilities')
      return { capabilities: { 'm.room_versions': { default: '10', available: { '10': 'stable' } } } };
    if (path === '/pushrules/')
      return { global: { override: [], content: [], room: [], sender: [], underride: [] } };
    if (path === '/createRoom' && method === 'POST') return this.createRoom(s, parse(CreateRoomBody));
    let r = path.match(/^\/directory\/room\/([^/]+)$/);
    if (r && method === 'GET') {
      const id = this.aliases.get(decodeURIComponent(r[1] as string));
      if (!id) throw new MxError(404, 'M_NOT_FOUND', 'Room alias not found');
      return { room_id: id, servers: [this.serverName] };
    }
    r = path.match(/^\/(?:join|rooms)\/([^/]+)(?:\/join)?$/);
    if (r && method === 'POST' && (path.startsWith('/join/') || path.endsWith('/join')))
      return { room_id: this.join(s, decodeURIComponent(r[1] as string)) };
    r = path.match(/^\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/);
    if (r && method === 'PUT') {
      const [roomId, type, txn] = (r.slice(1) as string[]).map(decodeURIComponent) as [
        string,
        string,
        string,
      ];
      return { event_id: this.send(s, roomId, type, txn, json() as Json) };
    }
    r = path.match(/^\/rooms\/([^/]+)\/redact\/([^/]+)\/([^/]+)$/);
    if (r && method === 'PUT') {
      const [roomId, target, txn] = (r.slice(1) as string[]).map(decodeURIComponent) as [
        string,
        string,
        string,
      ];
      return { event_id: this.redact(s, roomId, target, txn, json() as Json) };
    }
    r = path.match(/^\/user\/([^/]+)\/filter(?:\/([^/]+))?$/);
    if (r) {
      if (decodeURIComponent(r[1] as string) !== s.user)
        throw new MxError(403, 'M_FORBIDDEN', 'Cannot use filters for other users');
      if (method === 'POST' && !r[2]) {
        const id = String(++this.counter);
        this.filters.set(`${s.user}/${id}`, parse(Filter));
        return { filter_id: id };
      }
      const f = this.filters.get(`${s.user}/${decodeURIComponent(r[2] ?? '')}`);
      if (!f) throw new MxError(404, 'M_NOT_FOUND', 'No such filter');
      return f;
    }
    if (path === '/sync' && method === 'GET') return this.sync(s, u);
    throw new MxError(404, 'M_UNRECOGNIZED', 'Unrecognized request');
  }

  private append(
    room: Room,
    ev: Omit<MxEvent, 'event_id' | 'origin_server_ts'>,
    by?: Session,
    txn?: string,
  ): MxEvent {
    const full: MxEvent = {
      event_id: `$${++this.counter}_${randomBytes(6).toString('base64url')}`,
      origin_server_ts: Date.now(),
      ...ev,
    };
    this.log.push({
      pos: this.log.length + 1,
      room: room.id,
      ev: full,
      ...(by ? { device: `${by.user}|${by.device}` } : {}),
      ...(txn ? { txn } : {}),
    });
    if (full.state_key !== undefined) room.state.set(`${full.type}\u0000${full.state_key}`, full);
    for (const w of [...this.waiters]) w();
    return full;
  }
  private power(room: Room, user: string): { user: number; events: (t: string) => number; redact: number } {
    const pl = room.state.get('m.room.power_levels\u0000')?.content ?? {};
    const users = (pl.users ?? {}) as Record<string, number>;
    const events = (pl.events ?? {}) as Record<string, number>;
    return {
      user: users[user] ?? Number(pl.users_default ?? 0),
      events: (t) => events[t] ?? Number(pl.events_default ?? 0),
      redact: Number(pl.redact ?? 50),
    };
  }

  private createRoom(s: Session, b: z.infer<typeof CreateRoomBody>): Json {
    let alias: string | null = null;
    if (b.room_alias_name !== undefined) {
      if (!b.room_alias_name || /[:\s#]/.test(b.room_alias_name))
        throw new MxError(400, 'M_INVALID_PARAM', 'Invalid alias');
      alias = `#${b.room_alias_name}:${this.serverName}`;
      if (this.aliases.has(alias)) throw new MxError(400, 'M_ROOM_IN_USE', 'Room alias already taken');
    }
    const room: Room = {
      id: `!${randomBytes(9).toString('base64url')}:${this.serverName}`,
      alias,
      creator: s.user,
      federate: b.creation_content?.['m.federate'] !== false,
      state: new Map(),
    };
    this.rooms.set(room.id, room);
    if (alias) this.aliases.set(alias, room.id);
    const st = (type: string, content: Json, key = '') =>
      this.append(room, { type, sender: s.user, state_key: key, content });
    st('m.room.create', { creator: s.user, room_version: '10', ...(b.creation_content ?? {}) });
    st('m.room.member', { membership: 'join' }, s.user);
    st('m.room.power_levels', {
      users: { [s.user]: 100 },
      users_default: 0,
      events_default: 0,
      state_default: 50,
      redact: 50,
      ...(b.power_level_content_override ?? {}),
    });
    const pub = (b.preset ?? (b.visibility === 'public' ? 'public_chat' : 'private_chat')) === 'public_chat';
    st('m.room.join_rules', { join_rule: pub ? 'public' : 'invite' });
    st('m.room.history_visibility', { history_visibility: 'shared' });
    if (alias) st('m.room.canonical_alias', { alias });
    if (b.name) st('m.room.name', { name: b.name });
    if (b.topic) st('m.room.topic', { topic: b.topic });
    return { room_id: room.id };
  }

  private join(s: Session, idOrAlias: string): string {
    const id = idOrAlias.startsWith('#') ? this.aliases.get(idOrAlias) : idOrAlias;
    const room = id ? this.rooms.get(id) : undefined;
    if (!room) throw new MxError(404, 'M_NOT_FOUND', 'No known servers / room not found');
    if (isMember(room, s.user)) return room.id;
    if (room.state.get('m.room.join_rules\u0000')?.content.join_rule !== 'public')
      throw new MxError(403, 'M_FORBIDDEN', 'You are not invited to this room.');
    this.append(room, {
      type: 'm.room.member',
      sender: s.user,
      state_key: s.user,
      content: { membership: 'join' },
    });
    return room.id;
  }

  private joined(s: Session, roomId: string): Room {
    const room = this.rooms.get(roomId);
    if (!room) throw new MxError(404, 'M_NOT_FOUND', 'Unknown room');
    if (!isMember(room, s.user))
      throw new MxError(403, 'M_FORBIDDEN', `User ${s.user} not in room ${roomId}`);
    return room;
  }

  private send(s: Session, roomId: string, type: string, txn: string, content: Json): string {
    const key = `${s.user}|${s.device}|${txn}`;
    const seen = this.txns.get(key);
    if (seen) return seen;
    const room = this.joined(s, roomId);
    const pw = this.power(room, s.user);
    if (pw.user < pw.events(type))
      throw new MxError(403, 'M_FORBIDDEN', `You don't have permission to post ${type} events`);
    const ev = this.append(room, { type, sender: s.user, content }, s, txn);
    this.txns.set(key, ev.event_id);
    return ev.event_id;
  }

  private redact(s: Session, roomId: string, target: string, txn: string, content: Json): string {
    const key = `${s.user}|${s.device}|${txn}`;
    const seen = this.txns.get(key);
    if (seen) return seen;
    const room = this.joined(s, roomId);
    const orig = this.log.find((x) => x.room === roomId && x.ev.event_id === target);
    if (!orig) throw new MxError(404, 'M_NOT_FOUND', 'Event not found');
    const pw = this.power(room, s.user);
    if (orig.ev.sender !== s.user && pw.user < pw.redact)
      throw new MxError(403, 'M_FORBIDDEN', 'You cannot redact this event');
    const ev = this.append(
      room,
      { type: 'm.room.redaction', sender: s.user, redacts: target, content: { ...content, redacts: target } },
      s,
      txn,
    );
    // The original keeps only its integrity fields: content emptied, the redaction in unsigned.
    orig.ev.content = {};
    orig.ev.unsigned = { ...(orig.ev.unsigned ?? {}), redacted_because: ev };
    this.txns.set(key, ev.event_id);
    return ev.event_id;
  }

  private async sync(s: Session, u: URL): Promise<Json> {
    const since = u.searchParams.get('since');
    const from = since ? Number(since.replace(/^s/, '')) : 0;
    if (!Number.isInteger(from) || from < 0 || from > this.log.length)
      throw new MxError(400, 'M_INVALID_PARAM', 'Bad since token');
    const fp = u.searchParams.get('filter');
    let filter: FilterT = {};
    if (fp?.startsWith('{')) filter = Filter.parse(JSON.parse(fp));
    else if (fp) {
      const f = this.filters.get(`${s.user}/${fp}`);
      if (!f) throw new MxError(400, 'M_INVALID_PARAM', 'Unknown filter');
      filter = f;
    }
    const timeout = Math.min(Number(u.searchParams.get('timeout') ?? 0) || 0, 30_000);
    // Long poll: wait until an event this filter lets through arrives, or the timeout.
    const end = Date.now() + timeout;
    let out = collectSync(this.rooms.values(), this.log, s, from, filter, since === null);
    while (!out.any && Date.now() < end && this.server?.listening) {
      await new Promise<void>((ok) => {
        const done = () => {
          clearTimeout(t);
          this.waiters.delete(done);
          ok();
        };
        const t = setTimeout(done, end - Date.now());
        this.waiters.add(done);
      });
      out = collectSync(this.rooms.values(), this.log, s, from, filter, since === null);
    }
    return {
      next_batch: `s${this.log.length}`,
      rooms: { join: out.join, invite: {}, leave: {} },
      presence: { events: [] },
      account_data: { events: [] },
      to_device: { events: [] },
    };
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      s += c;
    });
    req.on('end', () => ok(s));
    req.on('error', fail);
  });
}
