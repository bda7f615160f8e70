import { type AuthProvidersResponse, Db8Client } from '@db8/sdk';
import * as oauth from 'oauth4webapi';
import { ApiError } from './api.ts';
import { safeReturnPath } from './return-path.ts';
import type { StoredSession } from './session.ts';

// People sign in with the server's OpenID Connect issuer (GET /v1/auth/providers): the
// authorization code flow with PKCE, this page as a public client (no secret). oauth4webapi
// (panva) does the protocol: discovery, state, nonce, the code exchange and the id_token's claims.
// The issuer's token is then exchanged for a db8 session (POST /v1/auth/session), which checks
// its signature against the issuer's keys. What the flow needs across the redirect (verifier,
// state, nonce, where to return) waits in this tab's sessionStorage, used once.

export type OidcProvider = NonNullable<AuthProvidersResponse['oidc']>;

const PENDING_KEY = 'db8.signin';
export const CALLBACK_PATH = '/signin/callback';

interface Pending {
  issuer: string;
  clientId: string;
  credential: OidcProvider['credential'];
  verifier: string;
  state: string;
  nonce: string;
  to: string;
}

/** Plain http is allowed only for an issuer on this machine (a local provider while developing). */
function loopback(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const options = (issuer: URL) => (loopback(issuer) ? { [oauth.allowInsecureRequests]: true } : {});

async function discover(issuerId: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(issuerId);
  const res = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...options(issuer) });
  return oauth.processDiscoveryResponse(issuer, res);
}

const redirectUri = () => `${location.origin}${CALLBACK_PATH}`;

/** Off to the issuer's login page; back at CALLBACK_PATH. */
export async function startSignIn(p: OidcProvider, returnTo: string): Promise<void> {
  const as = await discover(p.issuer);
  if (!as.authorization_endpoint) throw new Error('the issuer publishes no authorization endpoint');
  const pending: Pending = {
    issuer: p.issuer,
    clientId: p.client_id,
    credential: p.credential,
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    to: safeReturnPath(returnTo),
  };
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: p.client_id,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: p.scopes.join(' '),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(url.href);
}

/** Why a sign-in was refused, in words a person can act on. */
function refusal(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof oauth.AuthorizationResponseError)
    return `the identity provider refused: ${e.error_description ?? e.error}`;
  if (/"state"/.test(msg))
    return 'the answer does not belong to the sign-in this browser started (its state does not match)';
  if (/"nonce"/.test(msg))
    return 'the identity token was not made for this sign-in (its nonce does not match)';
  if (/"iss"/.test(msg)) return 'the identity token comes from another issuer than this server trusts';
  if (e instanceof ApiError) return `this server refused the identity token: ${e.message}`;
  return msg;
}

export interface SignedIn {
  session: StoredSession;
  to: string;
}

/**
 * The issuer's answer at CALLBACK_PATH (`?code&state` or `?error`) turned into a db8 session. Throws
 * an Error whose message says why, when the answer is refused: nothing is stored then.
 */
export async function finishSignIn(callback: URL): Promise<SignedIn> {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw) throw new Error('Sign-in failed: this browser tab started no sign-in (or it was used already).');
  const p = JSON.parse(raw) as Pending;
  try {
    const as = await discover(p.issuer);
    const client: oauth.Client = { client_id: p.clientId };
    const params = oauth.validateAuthResponse(as, client, callback, p.state);
    const opts = options(new URL(p.issuer));
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri(),
      p.verifier,
      opts,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res, {
      expectedNonce: p.nonce,
      requireIdToken: true,
    });
    const credential = p.credential === 'id_token' ? tokens.id_token : tokens.access_token;
    if (!credential) throw new Error(`the identity provider sent no ${p.credential}`);
    const session = await new Db8Client({ baseUrl: location.origin, token: credential }).refreshSession();
    // The name shown is the one the server keeps for this person (from the verified token), not
    // whatever the browser read: the same name others see beside their seat.
    const { name } = await new Db8Client({ baseUrl: location.origin, token: session.token }).me();
    return { session: name ? { ...session, name } : session, to: p.to };
  } catch (e) {
    throw new Error(`Sign-in failed: ${refusal(e)}. Nothing was signed in; start again.`);
  }
}
