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
