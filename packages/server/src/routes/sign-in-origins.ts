import type { ServerConfig } from '../config.ts';
import { webSignIn } from './auth-providers.ts';

type Log = { warn(o: object, m: string): void };

/** How long a failed look-up stands before the next page asks again. */
export const DISCOVERY_RETRY_MS = 5 * 60_000;
/** Bound on one look-up of the discovery document. */
export const DISCOVERY_TIMEOUT_MS = 5000;

/**
 * The origins the web app's pages fetch from to sign a person in, for the CSP's connect-src: the
 * issuer's (its discovery document) and its token endpoint's, which may be another one (Google:
 * accounts.google.com, oauth2.googleapis.com). The token endpoint is read from the issuer's
 * discovery document, fetched when a page first asks (not at start: a server offline, or started
 * before its issuer, still serves), bounded in time and kept once read. Until then, or when the
 * look-up fails (logged, asked again after DISCOVERY_RETRY_MS), the issuer's origin alone, with any
 * origins OIDC_CONNECT_ORIGINS names (a server that cannot reach its issuer's discovery document).
 */
export class SignInOrigins {
  private readonly issuer: string | null;
  /** OIDC_CONNECT_ORIGINS: named by whoever runs the server, allowed from the start. */
  private readonly configured: string[];
  private learned: string[] = [];
  private done = false;
  private nextTry = 0;
  private pending: Promise<void> | null = null;

  constructor(
    config: Pick<ServerConfig, 'oidc'>,
    private readonly log: Log,
    private readonly clock: () => number = Date.now,
    private readonly timeoutMs = DISCOVERY_TIMEOUT_MS,
  ) {
    this.issuer = webSignIn(config)?.issuer ?? null;
    this.configured = (config.oidc?.connectOrigins ?? []).map((o) => new URL(o).origin);
  }

  /** What connect-src adds now; starts a look-up of the token endpoint when one is due. */
  current(): string[] {
    if (!this.issuer) return [];
    if (!this.done && !this.pending && this.clock() >= this.nextTry) void this.learn();
    return [...new Set([new URL(this.issuer).origin, ...this.configured, ...this.learned])];
  }

  /** Reads the discovery document (once at a time); resolves when done, never rejects. */
  learn(): Promise<void> {
    if (!this.issuer || this.done) return Promise.resolve();
    this.pending ??= this.lookUp(this.issuer).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Settles when no look-up is under way (without starting one). */
  async idle(): Promise<void> {
    await this.pending;
  }

  private async lookUp(issuer: string): Promise<void> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = (await res.json()) as { token_endpoint?: unknown };
      if (typeof doc.token_endpoint !== 'string') throw new Error('no token_endpoint');
      const token = new URL(doc.token_endpoint);
      if (token.protocol !== 'https:' && token.protocol !== 'http:')
        throw new Error(`token_endpoint is not http(s): ${token.protocol}`);
      this.learned = [token.origin];
      this.done = true;
    } catch (err) {
      this.nextTry = this.clock() + DISCOVERY_RETRY_MS;
      this.log.warn(
        { err, url },
        "sign-in: the issuer's discovery document could not be read; the CSP allows its origin only",
      );
    }
  }
}
