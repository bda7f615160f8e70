import { describe, expect, it } from 'vitest';
import { Authenticator, SESSION_LIVE_CACHE_MS } from '../src/auth/authenticator.ts';
import { MemoryAuthStore } from '../src/auth/memory-store.ts';
import type { TokenService } from '../src/auth/tokens.ts';
import type { AuthContext } from '../src/auth/types.ts';

/** An authenticator over a memory store that counts its reads of the revocation list. */
function setup() {
  const store = new MemoryAuthStore();
  const reads: Array<number | null> = [];
  const inner = store.revokedSessions.bind(store);
  store.revokedSessions = (since, now) => {
    reads.push(since);
    return inner(since, now);
  };
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const authn = new Authenticator({} as TokenService, store, new Uint8Array(32), null, clock.now);
  const session = (sid: string) => ({ principal: 'p', sessionId: sid }) as AuthContext;
  return { store, reads, clock, authn, session };
}

describe("a node's list of logged-out sessions", () => {
  it('is read once per SESSION_LIVE_CACHE_MS for all sessions, not once per session', async () => {
    const { reads, clock, authn, session } = setup();
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 300; i++) expect(await authn.sessionLive(session(`s${i}`))).toBe(true);
    expect(reads).toEqual([null]); // the first read takes every revocation in force
    clock.advance(SESSION_LIVE_CACHE_MS);
    await Promise.all(Array.from({ length: 300 }, (_, i) => authn.sessionLive(session(`s${i}`))));
    expect(reads).toHaveLength(2); // concurrent askers share one read
  });

  it('sees a logout through another node within SESSION_LIVE_CACHE_MS, one through this node at once', async () => {
    const { store, clock, authn, session } = setup();
    expect(await authn.sessionLive(session('a'))).toBe(true);
    // Another node, its clock a minute behind ours, logs `a` out: only the store knows.
    const t = clock.now();
    await store.revokeSession({
      sid: 'a',
      principalId: 'p',
      revokedAt: t - 60_000,
      expiresAt: t + 3_600_000,
    });
    expect(await authn.sessionLive(session('a'))).toBe(true);
    clock.advance(SESSION_LIVE_CACHE_MS);
    expect(await authn.sessionLive(session('a'))).toBe(false);
    // This node logs `b` out: refused at once, no read needed.
    authn.markRevoked('b', t + 3_600_000);
    expect(await authn.sessionLive(session('b'))).toBe(false);
    expect(await authn.sessionLive(session('c'))).toBe(true);
  });

  it('forgets a revocation once its tokens could not verify anyway', async () => {
    const { store, clock, authn, session } = setup();
    const t = clock.now();
    await store.revokeSession({ sid: 'a', principalId: 'p', revokedAt: t, expiresAt: t + 5_000 });
    expect(await authn.sessionLive(session('a'))).toBe(false);
    clock.advance(5_000);
    // (A token of `a` would fail verification by now; the list no longer holds it.)
    expect(await authn.sessionLive(session('a'))).toBe(true);
  });

  it('an API key or OIDC identity (no session) is never looked up', async () => {
    const { reads, authn } = setup();
    expect(await authn.sessionLive({ principal: 'p' } as AuthContext)).toBe(true);
    expect(reads).toEqual([]);
  });
});
