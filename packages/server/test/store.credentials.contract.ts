import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/index.ts';
import type { StoreFactory, TestStore } from './store.helpers.ts';

/** Invites with bounded uses and revoked sessions (migration 050), and people's names, on every driver. */
export function credentialsContract(driverName: string, factory: StoreFactory): void {
  describe(`invites and revoked sessions (${driverName})`, () => {
    let t: TestStore;
    let store: Store;
    beforeAll(async () => {
      t = await factory();
      store = t.store;
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('an invite admits max_uses uses, concurrent ones included; a refund gives one back; expiry and unknown ids are told apart', async () => {
      const base = { roomId: 'r1', seat: null, createdBy: 'admin', createdAt: 1000, expiresAt: 5000 };
      await store.invites.create({ id: `i2_${driverName}`, maxUses: 2, ...base });
      const uses = await Promise.all([1, 2, 3, 4, 5].map(() => store.invites.use(`i2_${driverName}`, 2000)));
      expect(uses.filter((u) => typeof u === 'object')).toHaveLength(2);
      expect(uses.filter((u) => u === 'used_up')).toHaveLength(3);
      await store.invites.refund(`i2_${driverName}`);
      expect(await store.invites.use(`i2_${driverName}`, 2000)).toMatchObject({ uses: 2, maxUses: 2 });
      expect(await store.invites.use(`i2_${driverName}`, 2000)).toBe('used_up');
      await store.invites.create({ id: `i1_${driverName}`, maxUses: 1, ...base });
      expect(await store.invites.use(`i1_${driverName}`, 5000)).toBe('expired');
      expect(await store.invites.use('nope', 2000)).toBe('unknown');
      expect(await store.invites.purge(5000)).toBeGreaterThanOrEqual(2);
      expect(await store.invites.use(`i1_${driverName}`, 2000)).toBe('unknown');
    });

    it('a revoked session stays revoked (idempotently) until purged after its expiry', async () => {
      const sid = `s_${driverName}`;
      const mine = async (since: number | null, now: number) =>
        (await store.revokedSessions.inForce(since, now))
          .filter((r) => r.sid.endsWith(driverName))
          .sort((a, b) => a.sid.localeCompare(b.sid));
      expect(await mine(null, 0)).toEqual([]);
      await store.revokedSessions.revoke({ sid, principalId: 'agt_1', revokedAt: 1000, expiresAt: 9000 });
      await store.revokedSessions.revoke({ sid, principalId: 'agt_1', revokedAt: 2000, expiresAt: 9000 });
      await store.revokedSessions.revoke({
        sid: `t_${driverName}`,
        principalId: 'agt_1',
        revokedAt: 3000,
        expiresAt: 5000,
      });
      // All in force, or those revoked since a time (the first record of a session is kept: 1000).
      expect(await mine(null, 4000)).toEqual([
        { sid, expiresAt: 9000 },
        { sid: `t_${driverName}`, expiresAt: 5000 },
      ]);
      expect(await mine(1000, 4000)).toHaveLength(2);
      expect(await mine(1001, 4000)).toEqual([{ sid: `t_${driverName}`, expiresAt: 5000 }]);
      expect(await mine(null, 5000)).toEqual([{ sid, expiresAt: 9000 }]); // t's tokens are dead anyway
      expect(await store.revokedSessions.purge(8999)).toBeGreaterThanOrEqual(1);
      expect(await mine(null, 0)).toEqual([{ sid, expiresAt: 9000 }]);
      expect(await store.revokedSessions.purge(9000)).toBeGreaterThanOrEqual(1);
      expect(await mine(null, 0)).toEqual([]);
    });

    it("a person's principal is made by their first sign-in and renamed by a later one that names them", async () => {
      const id = `oidc:p_${driverName}`;
      await store.principals.upsertPerson({ id, displayName: '', createdAt: 10 });
      expect(await store.principals.get(id)).toMatchObject({
        kind: 'person',
        displayName: '',
        createdAt: 10,
      });
      await store.principals.upsertPerson({ id, displayName: 'Grace Hopper', createdAt: 20 });
      await store.principals.upsertPerson({ id, displayName: '', createdAt: 30 }); // no name: kept
      expect(await store.principals.get(id)).toMatchObject({ displayName: 'Grace Hopper', createdAt: 10 });
      const agent = `oidc:a_${driverName}`;
      await store.principals.create({ id: agent, kind: 'agent', displayName: 'Bot', createdAt: 1 });
      await store.principals.upsertPerson({ id: agent, displayName: 'Impostor', createdAt: 2 });
      expect(await store.principals.get(agent)).toMatchObject({ kind: 'agent', displayName: 'Bot' });
    });
  });
}
