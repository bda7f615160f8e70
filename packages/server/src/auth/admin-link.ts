import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { sha256Hex, utf8Encode } from '@db8/core';

const h = (s: string) => sha256Hex(utf8Encode(s));

/**
 * One-time admin login tokens for embedded mode: printed as `<origin>/login#token=…` (a fragment, so
 * it never reaches access logs), exchanged once for an admin session. Kept in memory, by hash: a
 * restart prints a fresh link and old ones die with the process.
 */
export class AdminLinks {
  private readonly live = new Map<string, number>();
  private localFile: string | null = null;

  constructor(private readonly clock: () => number = Date.now) {}

  create(ttlMs: number): string {
    const token = randomBytes(32).toString('base64url');
    this.live.set(h(token), this.clock() + ttlMs);
    return token;
  }

  url(origin: string, token: string): string {
    return `${origin}/login#token=${token}`;
  }

  /**
   * Also accept the local admin credential in `file` (see writeLocalAdminCredential), as often as it
   * is given, while the file exists and holds it: deleting the file revokes it.
   */
  acceptLocalCredential(file: string): void {
    this.localFile = file;
  }

  /** True once per link token while unexpired; always for the local credential while its file holds it. */
  consume(token: string): boolean {
    const k = h(token);
    const exp = this.live.get(k);
    if (exp === undefined) return this.isLocalCredential(token);
    this.live.delete(k);
    return this.clock() < exp;
  }

  private isLocalCredential(token: string): boolean {
    if (!this.localFile) return false;
    const local = readLocalAdminCredential(this.localFile)?.token;
    if (!local) return false;
    const a = Buffer.from(h(token));
    const b = Buffer.from(h(local));
    return timingSafeEqual(a, b);
  }
}

/** `<dataDir>/local-admin.json`: `{ url, token }`, mode 0600 — the CLI's `db8 login --local`. */
export interface LocalAdminCredential {
  url: string;
  token: string;
}

export function readLocalAdminCredential(file: string): LocalAdminCredential | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalAdminCredential>;
    return typeof v.url === 'string' && typeof v.token === 'string' && v.token.length >= 32
      ? { url: v.url, token: v.token }
      : null;
  } catch {
    return null;
  }
}

/**
 * Write (or refresh) the local admin credential: the token already in the file is kept (a login
 * saved from it keeps working across restarts), the URL is this start's. Readable by the user only.
 */
export function writeLocalAdminCredential(file: string, url: string): LocalAdminCredential {
  const token = readLocalAdminCredential(file)?.token ?? randomBytes(32).toString('base64url');
  const cred = { url, token };
  writeFileSync(file, `${JSON.stringify(cred)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return cred;
}
