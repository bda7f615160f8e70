// Talking to a db8 server from the CLI: which URL, which credential (renewed when it runs out), and
// every failure turned into one line that says what to do next, with the exit code scripts expect.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseOpenSshPrivateKey, signSshsig, utf8Encode } from '@db8/core';
import { Db8Client, Db8Error, type SessionResponse } from '@db8/sdk';
import {
  EXIT_AUTH,
  EXIT_INVALID_INPUT,
  EXIT_IO_ERROR,
  EXIT_REJECTED,
  EXIT_USAGE,
  type ExitCode,
} from './exit-codes.ts';
import { CliError, expandHome } from './io.ts';
import { readLocalAdmin } from './local-admin.ts';
import {
  type Credential,
  DEFAULT_URL,
  loadSession,
  type RoomSeat,
  type Session,
  saveSession,
} from './session.ts';

/** Renew a token this long before it expires, so a request never races its expiry. */
const RENEW_MARGIN_MS = 60_000;

export const LOGIN_HINT = 'run db8 login --api-key <key> (or --ssh-key <file>, or --link <admin link>)';

export function normalizeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError(EXIT_USAGE, `--url ${url}: expected an http(s) URL such as ${DEFAULT_URL}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new CliError(EXIT_USAGE, `--url ${url}: expected an http(s) URL such as ${DEFAULT_URL}`);
  }
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

/** `--url`, else $DB8_URL, else the saved session's server, else the local default. */
export function serverUrl(flag: string | undefined, session: Session | null): string {
  const url = flag ?? (process.env.DB8_URL || undefined) ?? session?.url ?? DEFAULT_URL;
  return normalizeUrl(url);
}

export const expiresAtMs = (r: { expires_at: string }) => Date.parse(r.expires_at);

/** SSH challenge login: sign the server's nonce (namespace db8) with the key, or the key and its certificate. */
export async function sshLogin(
  api: Db8Client,
  c: Extract<Credential, { kind: 'ssh' }>,
): Promise<SessionResponse> {
  let seed: Uint8Array;
  let certificate: string | undefined;
  try {
    seed = parseOpenSshPrivateKey(readFileSync(c.keyPath, 'utf8')).seed;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new CliError(EXIT_IO_ERROR, `cannot read ${c.keyPath} (${code})`);
    throw new CliError(EXIT_INVALID_INPUT, `${c.keyPath}: ${(e as Error).message}`);
  }
  if (c.certPath) {
    try {
      certificate = readFileSync(c.certPath, 'utf8').trim();
    } catch (e) {
      throw new CliError(EXIT_IO_ERROR, `cannot read ${c.certPath} (${(e as NodeJS.ErrnoException).code})`);
    }
  }
  const ch = await api.challenge(c.roomId ? { room_id: c.roomId } : {});
  let signature: string;
  try {
    signature = signSshsig({
      seed,
      namespace: 'db8',
      message: utf8Encode(ch.nonce),
      ...(certificate ? { certificate } : {}),
    });
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `cannot sign with ${c.keyPath}: ${(e as Error).message}`);
  }
  return api.verify({ nonce: ch.nonce, signature, ...(c.principal ? { principal: c.principal } : {}) });
}

/** The CLI's view of one server: the saved session (when it is for this URL) and clients built from it. */
export class Remote {
  readonly url: string;
  session: Session | null;
  readonly api: Db8Client;

  constructor(urlFlag: string | undefined) {
    const saved = loadSession();
    this.url = serverUrl(urlFlag, saved);
    // A session for another server does not apply here.
    this.session = saved && normalizeUrl(saved.url) === this.url ? saved : null;
    this.api = new Db8Client({ baseUrl: this.url });
  }

  get loggedIn(): boolean {
    return this.session?.session != null || (this.session?.credential ?? null) !== null;
  }

  private notLoggedIn(): CliError {
    const other = loadSession();
    const where = other && normalizeUrl(other.url) !== this.url ? ` (logged in to ${other.url} only)` : '';
    return new CliError(EXIT_AUTH, `not logged in to ${this.url}${where}: ${LOGIN_HINT}`);
  }

  /** A token for this principal, renewed from the saved credential when it is about to run out. */
  async token(): Promise<string> {
    const s = this.session;
    if (!s) throw this.notLoggedIn();
    if (s.session && s.session.expiresAt - RENEW_MARGIN_MS > Date.now()) return s.session.token;
    const c = s.credential;
    let r: SessionResponse;
    if (c?.kind === 'api_key') r = await this.call(() => this.api.sessionFromApiKey({ api_key: c.apiKey }));
    else if (c?.kind === 'ssh') r = await this.call(() => sshLogin(this.api, c));
    else if (c?.kind === 'local_admin' && readLocalAdmin(c.file)) {
      const token = readLocalAdmin(c.file)!.token;
      r = await this.call(() => this.api.adminLogin(token));
    } else if (s.session && s.session.expiresAt > Date.now()) return s.session.token;
    else throw new CliError(EXIT_AUTH, `the session for ${this.url} has expired: ${LOGIN_HINT}`);
    s.session = { token: r.token, expiresAt: expiresAtMs(r) };
    s.principal = r.principal;
    s.role = r.role;
    saveSession(s);
    return r.token;
  }

  async client(): Promise<Db8Client> {
    return this.api.withToken(await this.token());
  }

  /** The seat this CLI took in `roomId` (db8 room join), if any. */
  seatIn(roomId: string): RoomSeat | null {
    return this.session?.rooms[roomId] ?? null;
  }

  /**
   * The credential to use in a room: its seat token while fresh; for an API key a fresh seat token;
   * else the principal's own token (the server finds the seat it holds); else anonymous (observer).
   */
  async roomClient(roomId: string, opts: { required?: boolean } = {}): Promise<Db8Client> {
    const seat = this.seatIn(roomId);
    if (seat && seat.expiresAt - RENEW_MARGIN_MS > Date.now()) return this.api.withToken(seat.token);
    const s = this.session;
    if (seat && s?.credential?.kind === 'api_key') {
      const key = s.credential.apiKey;
      const r = await this.call(() =>
        this.api.sessionFromApiKey({ api_key: key, room_id: roomId, seat: seat.seat }),
      );
      s.rooms[roomId] = { seat: seat.seat, token: r.token, expiresAt: expiresAtMs(r) };
      saveSession(s);
      return this.api.withToken(r.token);
    }
    if (this.loggedIn) return this.client();
    if (seat) {
      throw new CliError(
        EXIT_AUTH,
        `your seat token for ${roomId} has expired: join again with an invite, or ${LOGIN_HINT}`,
      );
    }
    if (opts.required) throw this.notLoggedIn();
    return this.api;
  }

  save(): void {
    if (this.session) saveSession(this.session);
  }

  /** Run a request; any failure becomes a CliError that says what went wrong and what to do. */
  async call<T>(fn: () => Promise<T>, context: { roomId?: string } = {}): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw explain(e, this.url, context);
    }
  }
}

function hintFor(e: Db8Error, ctx: { roomId?: string }): string {
  const room = ctx.roomId ?? '<room>';
  switch (e.code) {
    case 'UNAUTHORIZED':
    case 'INVALID_TOKEN':
      return LOGIN_HINT;
    case 'FORBIDDEN':
      return /admin/i.test(e.message)
        ? 'this needs an admin: run db8 login --link <admin login link printed by db8 start>'
        : '';
    case 'SIGNATURE_INVALID':
      return (e.details as { reason?: unknown } | undefined)?.reason === 'UNTRUSTED_KEY'
        ? 'register the key first: db8 agent register --ssh-key <key.pub>'
        : '';
    case 'SEAT_NOT_HELD':
      return `take a seat first: db8 room join ${room}`;
    case 'ROOM_NOT_FOUND':
      return 'db8 room list shows the rooms';
    case 'UNKNOWN_SEAT':
      return `db8 room status ${room} lists the seats`;
    case 'SEAT_TAKEN':
    case 'ROOM_FULL':
      return `pick a free seat: db8 room status ${room}`;
    case 'STALE_SEQ':
    case 'STALE_TURN_TOKEN':
      return `the room moved on: check db8 room status ${room} and act again`;
    case 'OUTDATED_CLIENT':
      return 'update db8 (this CLI speaks an older protocol than the server accepts)';
    case 'UNKNOWN_PROTOCOL': {
      const known = (e.details as { known?: unknown } | undefined)?.known;
      return Array.isArray(known) ? `known protocols: ${known.join(', ')}` : '';
    }
    default:
      return '';
  }
}

function exitFor(e: Db8Error): ExitCode {
  if (e.status === 401 || e.status === 403) return EXIT_AUTH;
  if (e.status === 400 || e.status === 413 || e.status === 415 || e.status === 422) return EXIT_INVALID_INPUT;
  if (e.status >= 500 || e.status === 0) return EXIT_IO_ERROR;
  return EXIT_REJECTED;
}

/** Any failure of a request as a CliError: server errors keep their code; transport errors name the URL. */
export function explain(e: unknown, url: string, ctx: { roomId?: string } = {}): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof Db8Error) {
    if (e.code === 'BAD_RESPONSE') {
      return new CliError(
        EXIT_IO_ERROR,
        `${url} answered in an unexpected shape: is it a db8 server of this version?`,
      );
    }
    const detail = validationDetail(e.details);
    const hint = hintFor(e, ctx);
    const msg = `${e.code}: ${e.message}${detail ? ` (${detail})` : ''}${hint ? `: ${hint}` : ''}`;
    return new CliError(exitFor(e), msg);
  }
  const c = (e as { cause?: { code?: string; message?: string } }).cause;
  const cause = c?.code ?? c?.message;
  if (e instanceof TypeError && /fetch failed/i.test(e.message)) {
    const why = cause ?? 'connection failed';
    return new CliError(
      EXIT_IO_ERROR,
      `cannot reach ${url} (${why}): is the server running? (db8 start, or give --url)`,
    );
  }
  return new CliError(EXIT_IO_ERROR, (e as Error)?.message ?? String(e));
}

/** First zod issue of a VALIDATION_FAILED / BAD_ACTION answer, as `path: message`. */
function validationDetail(details: unknown): string {
  const list = Array.isArray(details)
    ? details
    : Array.isArray((details as { issues?: unknown })?.issues)
      ? (details as { issues: unknown[] }).issues
      : null;
  const first = list?.[0] as { path?: unknown; message?: unknown } | undefined;
  if (!first || typeof first.message !== 'string') return '';
  const path = Array.isArray(first.path)
    ? first.path.join('.')
    : typeof first.path === 'string'
      ? first.path
      : '';
  return path ? `${path}: ${first.message}` : first.message;
}

export const absPath = (p: string) => resolve(expandHome(p));
