/**
 * Keys never leave the provider: every string that goes into a record or an error passes through
 * `redact`, which replaces each secret (and its Bearer form) with `[redacted]`.
 */
export class Redactor {
  readonly #secrets: string[];

  constructor(secrets: readonly (string | null | undefined)[]) {
    // Very short "secrets" would redact ordinary words; real keys are long.
    this.#secrets = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.#secrets) out = out.split(s).join('[redacted]');
    return out;
  }

  toJSON(): string {
    return '[Redactor]';
  }
}

/** A base URL as it may be recorded: no user:password, query or fragment. */
export function safeEndpoint(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '[invalid url]';
  }
}

export const REDACTED = '[redacted]';

/**
 * A URL as it may be shown: user and password replaced, every query value replaced (any of them
 * may be a key: `?api-key=…`, `?key=…`), no fragment. Unlike safeEndpoint it keeps the shape, so an
 * admin can still tell which endpoint and which parameters a spec names.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '[invalid url]';
  }
  const user = u.username || u.password ? `${REDACTED}@` : '';
  const query = [...u.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=${REDACTED}`).join('&');
  return `${u.protocol}//${user}${u.host}${u.pathname}${query ? `?${query}` : ''}`;
}

/** The parts of a URL that may be credentials: user, password and every query value. */
export function urlSecrets(url: string | null): string[] {
  if (!url) return [];
  try {
    const u = new URL(url);
    const raw = [u.username, u.password, ...u.searchParams.values()];
    // Both forms: an error message may quote the URL as written or decoded.
    return raw.flatMap((s) => [s, decoded(s)]).filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
