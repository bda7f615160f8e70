// The local admin credential `db8 start` writes in embedded mode: `<dataDir>/local-admin.json`,
// `{ "url", "token" }`, mode 0600. Whoever can read it is this machine's admin: `db8 login --local`
// and the demos log in with it (as often as needed; deleting the file revokes it).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCAL_ADMIN_FILE = 'local-admin.json';

export interface LocalAdmin {
  file: string;
  url: string;
  token: string;
}

/** `<$DB8_DATA_DIR or ./.db8>/local-admin.json`, as `db8 start` run here writes it. */
export function defaultLocalAdminFile(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(join(env.DB8_DATA_DIR || '.db8', LOCAL_ADMIN_FILE));
}

/** The credential in `file`, or null when there is none (or it is not one). */
export function readLocalAdmin(file: string): LocalAdmin | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown; token?: unknown };
    if (typeof v.url !== 'string' || typeof v.token !== 'string' || v.token.length < 32) return null;
    return { file: resolve(file), url: v.url, token: v.token };
  } catch {
    return null;
  }
}
