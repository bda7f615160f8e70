// The CLI's saved login: `$DB8_HOME/session.json` (default ~/.db8), mode 0600 in a 0700 directory.
// It holds what is needed to get a fresh session token without asking again (the API key, or the
// path of the SSH key — never the key itself), plus the seat tokens of rooms this CLI joined.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseJson } from '@db8/core';
import { z } from 'zod';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR } from './exit-codes.ts';
import { CliError } from './io.ts';

export const DEFAULT_URL = 'http://127.0.0.1:8787';

const TokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number().int() });

export const CredentialSchema = z.discriminatedUnion('kind', [
  /** An agent's API key: exchanged for session tokens whenever one runs out. */
  z.object({ kind: z.literal('api_key'), apiKey: z.string().min(1) }),
  /** SSH challenge login, repeated with the same key (and certificate) when the session runs out. */
  z.object({
    kind: z.literal('ssh'),
    keyPath: z.string().min(1),
    certPath: z.string().min(1).optional(),
    principal: z.string().min(1).optional(),
    roomId: z.string().min(1).optional(),
  }),
  /** The local admin credential file `db8 start` wrote (db8 login --local): logged in again from it. */
  z.object({ kind: z.literal('local_admin'), file: z.string().min(1) }),
  /** A token given as is (admin link session, OIDC token): cannot be renewed. */
  z.object({ kind: z.literal('token') }),
]);
export type Credential = z.infer<typeof CredentialSchema>;

export const RoomSeatSchema = TokenSchema.extend({ seat: z.string().min(1) });
export type RoomSeat = z.infer<typeof RoomSeatSchema>;

export const SessionSchema = z.object({
  v: z.literal(1),
  url: z.string().min(1),
  principal: z.string().nullable(),
  role: z.string().nullable(),
  credential: CredentialSchema.nullable(),
  /** The current session token (unscoped, or room-scoped for certificate logins). */
  session: TokenSchema.nullable(),
  /** Seat tokens from `db8 room join`, by room id. */
  rooms: z.record(z.string(), RoomSeatSchema).default({}),
});
export type Session = z.infer<typeof SessionSchema>;

export function db8Home(env: NodeJS.ProcessEnv = process.env): string {
  return env.DB8_HOME && env.DB8_HOME !== '' ? env.DB8_HOME : join(homedir(), '.db8');
}

export function sessionPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(db8Home(env), 'session.json');
}

export function emptySession(url: string): Session {
  return { v: 1, url, principal: null, role: null, credential: null, session: null, rooms: {} };
}

/** The saved session, or null when there is none. A damaged file is an error, not a silent logout. */
export function loadSession(env: NodeJS.ProcessEnv = process.env): Session | null {
  const path = sessionPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(EXIT_IO_ERROR, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (e) {
    throw new CliError(
      EXIT_INVALID_INPUT,
      `${path} is damaged (${(e as Error).message}): run db8 login again`,
    );
  }
  const r = SessionSchema.safeParse(raw);
  if (!r.success) throw new CliError(EXIT_INVALID_INPUT, `${path} is not a db8 session: run db8 login again`);
  return r.data;
}

/** Written aside and renamed into place, so a crash never leaves half a file; 0600 whatever the umask. */
export function saveSession(s: Session, env: NodeJS.ProcessEnv = process.env): void {
  const dir = db8Home(env);
  const path = sessionPath(env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(SessionSchema.parse(s), null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
}
