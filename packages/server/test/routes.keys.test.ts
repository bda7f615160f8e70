import { ed25519Verifier, parseVerifierKey, verifyCheckpoint } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { KeysResponseSchema } from '../src/schemas/keys.ts';
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
});
