import { conflict } from '../errors.ts';
import { isUniqueViolation, type Store } from '../store/index.ts';
import type { AuthStore, NewAgent } from './types.ts';

/** AuthStore over the server's Store (principals, principal_keys, api_keys, nonces, revoked_sessions tables). */
export function storeAuth(store: Store): AuthStore {
  return {
    async registerAgent(a: NewAgent) {
      try {
        await store.tx(async (s) => {
          await s.principals.create({
            id: a.id,
            kind: 'agent',
            displayName: a.name,
            meta: a.metadata,
            createdAt: a.now,
          });
          await s.apiKeys.create({
            id: a.apiKey.id,
            principalId: a.id,
            keyHash: a.apiKey.hash,
            prefix: a.apiKey.prefix,
            createdAt: a.now,
          });
          if (a.sshKey) {
            await s.principals.addKey({
              fingerprint: a.sshKey.fingerprint,
              principalId: a.id,
              keyType: 'ssh-ed25519',
              publicKey: a.sshKey.line,
              createdAt: a.now,
            });
          }
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('this SSH key is already registered');
        throw e;
      }
    },
    async principalByApiKey(hash, now) {
      const row = await store.apiKeys.findLive(hash, now);
      return row?.principalId ?? null;
    },
    async principalByKey(fingerprint) {
      const row = await store.principals.keyByFingerprint(fingerprint);
      return row?.principalId ?? null;
    },
    async putNonce(n) {
      await store.nonces.create(n);
    },
    async consumeNonce(nonce, audience, now) {
      return (await store.nonces.consume(nonce, audience, now)) !== null;
    },
    revokeSession(r) {
      return store.revokedSessions.revoke(r);
    },
    revokedSessions(since, now) {
      return store.revokedSessions.inForce(since, now);
    },
  };
}
