// `db8 login` (API key, SSH key or certificate, admin link, or a token), `db8 logout`, `db8 whoami`.
// The session goes to $DB8_HOME/session.json (default ~/.db8), mode 0600.
import { existsSync } from 'node:fs';
import { Db8Client, type SessionResponse } from '@db8/sdk';
import { EXIT_AUTH, EXIT_USAGE } from '../exit-codes.ts';
import { CliError, readTextInput, writeStdout } from '../io.ts';
import { defaultLocalAdminFile, type LocalAdmin, readLocalAdmin } from '../local-admin.ts';
import { absPath, expiresAtMs, normalizeUrl, Remote, sshLogin } from '../remote.ts';
import { type Credential, emptySession, loadSession, saveSession, sessionPath } from '../session.ts';

export interface LoginOptions {
  url?: string;
  apiKey?: string;
  sshKey?: string;
  cert?: string;
  principal?: string;
  room?: string;
  link?: string;
  token?: string;
  /** true: the default local admin credential file; a string: that file. */
  local?: boolean | string;
  json?: boolean;
}

/** `<origin>/login#token=…` -> origin and token; a bare token is returned as is. */
function parseAdminLink(link: string): { url?: string; token: string } {
  const m = /^(https?:\/\/[^#]+?)\/login#token=([A-Za-z0-9_-]+)$/.exec(link.trim());
  if (m) return { url: m[1]!, token: m[2]! };
  if (/^[A-Za-z0-9_-]{16,}$/.test(link.trim())) return { token: link.trim() };
  throw new CliError(EXIT_USAGE, '--link: expected the admin login link db8 start printed (…/login#token=…)');
}

/** `exp` of a JWT in ms, when the token is one (only to know when to stop using it). */
function jwtExpiry(token: string): number | null {
  try {
    const exp = (
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }
    ).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A secret given as `-` is read from stdin, so it stays out of the process list and shell history. */
async function secret(v: string): Promise<string> {
  return v === '-' ? (await readTextInput('-')).trim() : v;
}

export async function login(o: LoginOptions): Promise<void> {
  const ways = [o.apiKey, o.sshKey, o.link, o.token, o.local].filter((x) => x !== undefined).length;
  if (ways !== 1) {
    throw new CliError(EXIT_USAGE, 'give exactly one of --api-key, --ssh-key, --link, --token or --local');
  }
  const link = o.link !== undefined ? parseAdminLink(o.link) : null;
  let local: LocalAdmin | null = null;
  if (o.local !== undefined) {
    const file = typeof o.local === 'string' ? absPath(o.local) : defaultLocalAdminFile();
    local = readLocalAdmin(file);
    if (!local) {
      throw new CliError(
        EXIT_AUTH,
        `no local admin credential at ${file}: db8 start (embedded store) writes it in its data directory; give its path with --local <file>`,
      );
    }
  }
  const remote = new Remote(o.url ?? link?.url ?? local?.url);
  const api = remote.api;
  let credential: Credential;
  let r: SessionResponse | null = null;
  if (o.apiKey !== undefined) {
    const apiKey = await secret(o.apiKey);
    credential = { kind: 'api_key', apiKey };
    r = await remote.call(() => api.sessionFromApiKey({ api_key: apiKey }));
  } else if (o.sshKey !== undefined) {
    const keyPath = absPath(o.sshKey);
    // Like ssh: a certificate next to the key (`<key>-cert.pub`) is used for certificate logins.
    const certPath = o.cert
      ? absPath(o.cert)
      : o.principal && existsSync(`${keyPath}-cert.pub`)
        ? `${keyPath}-cert.pub`
        : undefined;
    if (o.principal && !certPath) {
      throw new CliError(
        EXIT_USAGE,
        `--principal needs a certificate: give --cert, or put it at ${keyPath}-cert.pub`,
      );
    }
    // A certificate principal `<seat>@<room>` names the room the challenge must be for.
    const roomId = o.room ?? (o.principal?.includes('@') ? o.principal.split('@')[1] : undefined);
    credential = {
      kind: 'ssh',
      keyPath,
      ...(certPath ? { certPath } : {}),
      ...(o.principal ? { principal: o.principal } : {}),
      ...(roomId ? { roomId } : {}),
    };
    const c = credential;
    r = await remote.call(() => sshLogin(api, c), roomId ? { roomId } : {});
  } else if (link) {
    credential = { kind: 'token' };
    r = await remote.call(() => api.adminLogin(link.token));
  } else if (local) {
    const l = local;
    credential = { kind: 'local_admin', file: l.file };
    r = await remote.call(() => api.adminLogin(l.token));
  } else {
    credential = { kind: 'token' };
    const token = await secret(o.token!);
    const me = await remote.call(() => api.withToken(token).me());
    r = {
      token,
      expires_at: new Date(jwtExpiry(token) ?? Date.now() + 3600_000).toISOString(),
      principal: me.principal,
      role: me.role,
      room_id: me.room_id,
      seat: me.seat,
    };
  }
  const prev = loadSession();
  const same = prev && normalizeUrl(prev.url) === remote.url && prev.principal === r.principal;
  const s = same ? prev : emptySession(remote.url);
  s.url = remote.url;
  s.principal = r.principal;
  s.role = r.role;
  s.credential = credential;
  s.session = { token: r.token, expiresAt: expiresAtMs(r) };
  // A certificate (or room-scoped) login is a seat in that room.
  if (r.room_id && r.seat) s.rooms[r.room_id] = { seat: r.seat, token: r.token, expiresAt: expiresAtMs(r) };
  saveSession(s);
  if (o.json) {
    await writeStdout(
      `${JSON.stringify({ url: remote.url, principal: r.principal, role: r.role, room_id: r.room_id, seat: r.seat, session_file: sessionPath() })}\n`,
    );
    return;
  }
  const seat = r.room_id && r.seat ? `, seat ${r.seat} in ${r.room_id}` : '';
  await writeStdout(
    `logged in to ${remote.url} as ${r.principal} (${r.role}${seat}); session saved to ${sessionPath()}\n`,
  );
}

/**
 * `db8 logout`: revokes the saved session's live tokens (the login's and each room seat's) on the
 * server. Best effort: a damaged file, an unreachable server or a refused token never stops the
 * local logout. Returns how many the server ended.
 */
export async function endSessions(): Promise<number> {
  let s: ReturnType<typeof loadSession>;
  try {
    s = loadSession();
  } catch {
    return 0;
  }
  if (!s) return 0;
  const now = Date.now();
  const tokens = [s.session, ...Object.values(s.rooms)]
    .filter((t) => t !== null && t.expiresAt > now)
    .map((t) => t!.token);
  let ended = 0;
  for (const token of new Set(tokens)) {
    try {
      await new Db8Client({ baseUrl: s.url, token }).logout();
      ended++;
    } catch {
      // Expired, already revoked, not a server session, or the server is away: nothing to end there.
    }
  }
  return ended;
}
