// Where a sign-in returns to: a path of this app, carried as `/signin?to=<path>`. Kept apart from the
// sign-in flow (lib/oidc.ts) so the top bar and pages link to it without loading the OIDC client.

/** A path of this app to return to; anything else (another origin, `//host`) goes to the lobby. */
export function safeReturnPath(to: string | null | undefined): string {
  return to && /^\/(?![/\\])/.test(to) ? to : '/';
}

/** The `/signin` address that returns to `to` (a path of this app) afterwards. */
export function signInHref(to: string): string {
  return `/signin?to=${encodeURIComponent(safeReturnPath(to))}`;
}
