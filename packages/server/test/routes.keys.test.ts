import { ed25519Verifier, parseVerifierKey, verifyCheckpoint } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { KeysResponseSchema } from '../src/schemas/keys.ts';
import type { Harness } from './app-harness.ts';
import { auctionWithBidders, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

describe('GET /v1/keys', () => {
  it("publishes the same key record as every export, and it verifies the room's checkpoints", async () => {
    const h = await apps.make();
    const { roomId } = await auctionWithBidders(h);
    const r = await call(h, 'GET', '/v1/keys');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.raw.headers['cache-control']).toMatch(/max-age=/);
    const keys = KeysResponseSchema.parse(r.body);
    expect(keys.note_vkey).toBe(ed25519Verifier(h.serverKey.noteName, h.serverKey.publicKey).vkey);
    expect(keys.ssh_public_key).toBe(h.serverKey.sshPublicLine);
    expect(keys).toMatchObject({ identity: 'server@db8.test', namespace: 'db8-checkpoint' });
    const blob = h.serverKey.sshPublicLine.split(' ')[1];
    expect(keys.allowed_signers).toBe(`server@db8.test namespaces="db8-checkpoint" ssh-ed25519 ${blob}`);

    const exp = await call(h, 'GET', `/v1/rooms/${roomId}/export`);
    const keyRecord = exp.raw.body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .find((x: { type: string }) => x.type === 'key');
    expect(keyRecord).toEqual({ type: 'key', role: 'server', ...keys });

    const cps = await call(h, 'GET', `/v1/rooms/${roomId}/checkpoints`);
    const note: string = cps.body.checkpoints.at(-1).note;
    expect(verifyCheckpoint(note, [parseVerifierKey(keys.note_vkey)]).checkpoint.size).toBeGreaterThan(0);
  });

  it('answers 503 when the runtime does not publish its key', async () => {
    const h = await apps.make();
    const bare = bareRuntime(h);
    const h2 = await apps.make({ runtime: bare });
    try {
      const r = await call(h2, 'GET', '/v1/keys');
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('UNAVAILABLE');
    } finally {
      await h2.close();
    }
  });
});

/** The harness runtime's methods without its key and origin (a structural RuntimeApi). */
function bareRuntime(x: Harness) {
  const rt = x.runtime;
  return {
    createRoom: rt.createRoom.bind(rt),
    listRooms: rt.listRooms.bind(rt),
    getRoom: rt.getRoom.bind(rt),
    join: rt.join.bind(rt),
    act: rt.act.bind(rt),
    stateFor: rt.stateFor.bind(rt),
    entries: rt.entries.bind(rt),
    proof: rt.proof.bind(rt),
    checkpoints: rt.checkpoints.bind(rt),
    export: rt.export.bind(rt),
  };
}
