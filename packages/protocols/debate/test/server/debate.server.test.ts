// The debate protocol wired into the server: room id and room CA filled at creation, identities
// bound on join, certificate-signed submissions accepted in their room and refused in another,
// full debates played over REST on a settable clock to `closed`, and the ratings API after them.
import { randomBytes } from 'node:crypto';
import { ed25519, formatSshPublicKey, signCertificate, signSshsig, toBase64 } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedDecisions } from '../../agent/index.ts';
import { type DebateView, submissionBytes } from '../../rules/index.ts';
import { DEBATERS, debateServer, type Signer, TIMINGS } from './debate-harness.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
beforeAll(async () => {
  s = await debateServer();
});
afterAll(() => s.close());

const call = (method: 'GET' | 'POST', url: string, opts: { token?: string; body?: unknown } = {}) =>
  s.call(method, url, opts);
const createDebate = (c?: Record<string, unknown>) => s.createDebate(c);
const seatEveryone = (roomId: string, agents?: Map<string, string>) => s.seatEveryone(roomId, agents);
const playToClose = (
  roomId: string,
  seats: Parameters<typeof s.playToClose>[1],
  signers?: Map<string, Signer>,
) => s.playToClose(roomId, seats, signers);

describe('debate rooms on the server', () => {
  it('fills room_id and trusts the room CA at creation; a config naming a room id is refused', async () => {
    const room = await createDebate();
    expect(room.config.room_id).toBe(room.room_id);
    const trust = room.config.trust as { ca_keys: string[] };
    expect(trust.ca_keys).toEqual([formatSshPublicKey(s.serverKey.publicKey, 'db8-room-ca')]);

    // An admin's own CA is kept, and the room CA is added once.
    const own = formatSshPublicKey(ed25519.keyPairFromSeed(new Uint8Array(32).fill(9)).publicKey);
    const withOwn = await createDebate({ trust: { ca_keys: [own] } });
    expect((withOwn.config.trust as { ca_keys: string[] }).ca_keys).toHaveLength(2);

    const bad = await call('POST', '/v1/rooms', {
      token: s.admin,
      body: { protocol: 'debate', config: { topic: 't', room_id: 'room_elsewhere' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('BAD_CONFIG');
  });

  it("logs in with a certificate from the room's own CA (trust.ca_keys), for that room only", async () => {
    // The admin's CA, named in the room's config: it certifies anon_2's key for this room.
    const ca = ed25519.keyPairFromSeed(new Uint8Array(32).fill(7));
    const room = await createDebate({ trust: { ca_keys: [formatSshPublicKey(ca.publicKey)] } });
    const other = await createDebate();
    const key = ed25519.keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const certFor = (roomId: string, caSeed: Uint8Array) =>
      signCertificate({
        caSeed,
        publicKey: key.publicKey,
        serial: 1,
        keyId: 'own-ca',
        principals: [`anon_2@${roomId}`],
        validAfter: 'always',
        validBefore: 'forever',
      }).line;
    const login = async (roomId: string, certificate: string) => {
      const ch = await call('POST', '/v1/auth/challenge', { body: { room_id: roomId } });
      const signature = signSshsig({
        seed: key.seed,
        namespace: 'db8',
        message: new TextEncoder().encode(ch.body.nonce),
        certificate,
      });
      return call('POST', '/v1/auth/verify', { body: { nonce: ch.body.nonce, signature } });
    };
    const ok = await login(room.room_id, certFor(room.room_id, ca.seed));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ room_id: room.room_id, seat: 'anon_2' });
    // The same CA is not trusted by a room that does not name it, nor a stranger's CA by this one.
    expect((await login(other.room_id, certFor(other.room_id, ca.seed))).status).toBe(401);
    const stranger = new Uint8Array(32).fill(8);
    expect((await login(room.room_id, certFor(room.room_id, stranger))).status).toBe(401);
  });

  it('binds a debater seat to the joining principal (sealed; a rejoin writes nothing)', async () => {
    const room = await createDebate();
    const a = await call('POST', '/v1/agents', { body: { name: 'binder' } });
    const j = await call('POST', `/v1/rooms/${room.room_id}/join`, {
      token: a.body.api_key,
      body: { seat: 'anon_2' },
    });
    expect(j.status).toBe(200);
    const asAdmin = await call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    const view = asAdmin.body.view as DebateView;
    expect(view.debaters.find((d) => d.seat === 'anon_2')?.identity).toBe(j.body.principal);
    // Another seat holder does not see it (sealed until the unmask).
    const other = await call('GET', `/v1/rooms/${room.room_id}/state`, { token: j.body.session_token });
    expect((other.body.view as DebateView).debaters.find((d) => d.seat === 'anon_2')?.identity).toBeNull();

    const head = asAdmin.body.seq as number;
    const again = await call('POST', `/v1/rooms/${room.room_id}/join`, {
      token: a.body.api_key,
      body: { seat: 'anon_2' },
    });
    expect(again.status).toBe(200);
    const after = await call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    expect(after.body.seq).toBe(head);

    // Judges are not debaters: no binding entry.
    const b = await call('POST', '/v1/agents', { body: { name: 'judge' } });
    await call('POST', `/v1/rooms/${room.room_id}/join`, {
      token: b.body.api_key,
      body: { seat: 'judge_1' },
    });
    const judged = await call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    expect(judged.body.seq).toBe(head + 1);
  });

  it('plays two debates to closed (one debater signing with its room certificate), refuses a certificate from another room, and rates the identities', async () => {
    const agents = new Map<string, string>();
    const roomA = await createDebate({ max_rounds: 2, timings: TIMINGS });
    const seatsA = await seatEveryone(roomA.room_id, agents);

    // anon_3 certifies a fresh key for its seat with the room CA.
    const key = ed25519.keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const cert = await call('POST', `/v1/rooms/${roomA.room_id}/certs`, {
      token: seatsA.get('anon_3')!.token,
      body: { public_key: formatSshPublicKey(key.publicKey) },
    });
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    expect(cert.body.principal).toBe(`anon_3@${roomA.room_id}`);
    const certSigner: Signer = (bytes) => ({
      signature_kind: 'ssh',
      signature_b64: toBase64(
        new TextEncoder().encode(
          signSshsig({
            seed: key.seed,
            namespace: 'db8',
            message: bytes,
            certificate: cert.body.certificate,
          }),
        ),
      ),
    });

    const phasesA = await playToClose(roomA.room_id, seatsA, new Map([['anon_3', certSigner]]));
    expect(phasesA).toContain('final_vote');
    expect(phasesA.at(-1)).toBe('closed');
    const endA = await call('GET', `/v1/rooms/${roomA.room_id}/state`, { token: s.admin });
    const viewA = endA.body.view as DebateView;
    const signed = viewA.rounds[0]!.submissions.find((s) => s.author === 'anon_3')!;
    expect(signed.signature?.via).toBe('certificate');
    expect(viewA.rounds[0]!.submissions.find((s) => s.author === 'anon_5')!.status).toBe('rejected');
    const ids = viewA.results!.identities!;
    for (const d of DEBATERS) expect(ids[d]).toBe(seatsA.get(d)!.principal);
    // The scripted voters prefer anon_3, then anon_1: the placements follow.
    expect(viewA.results!.placements[0]!.seat).toBe('anon_3');

    const r1 = await call('GET', '/v1/ratings');
    expect(r1.status).toBe(200);
    expect(r1.body.matches).toBe(1);
    expect(r1.body.global).toHaveLength(5);
    expect(r1.body.global[0].identity).toBe(seatsA.get('anon_3')!.principal);
    // Rows carry the principal's name, so a leaderboard need not show agt_… ids.
    expect(r1.body.global[0].name).toBe('anon_3-bot');
    expect(r1.body.global[0].scripted).toBe(false);
    expect(r1.body.global[0].rating).toBeGreaterThan(1500);
    expect(r1.body.global.at(-1).rating).toBeLessThan(1500);
    expect(Object.keys(r1.body.tags)).toEqual(['urbanism']);

    // Room B (made after A closed, on the same clock): the same certificate (anon_3@roomA) signing anon_3's submission there is refused.
    const roomB = await createDebate({ timings: TIMINGS });
    const seatsB = await seatEveryone(roomB.room_id, agents);
    const stB = await call('GET', `/v1/rooms/${roomB.room_id}/state`, { token: seatsB.get('anon_3')!.token });
    const [sub] = scriptedDecisions('anon_3', stB.body.view, stB.body.legal.actions);
    expect(sub?.action.type).toBe('submit');
    expect((sub!.action as { room_id: string }).room_id).toBe(roomB.room_id);
    const cross = await call('POST', `/v1/rooms/${roomB.room_id}/actions`, {
      token: seatsB.get('anon_3')!.token,
      body: {
        seat: 'anon_3',
        action: { ...sub!.action, ...certSigner(submissionBytes(sub!.action as never)) },
      },
    });
    expect(cross.status).toBe(409);
    expect(cross.body.error.code).toBe('BAD_SIGNATURE');
    // …and so is a submission claiming room A's id in room B (anti-replay field).
    const replay = await call('POST', `/v1/rooms/${roomB.room_id}/actions`, {
      token: seatsB.get('anon_3')!.token,
      body: { seat: 'anon_3', action: { ...sub!.action, room_id: roomA.room_id } },
    });
    expect(replay.body.error.code).toBe('ROOM_MISMATCH');

    // The second debate (same agents) closes: the cache is refolded on the next read.
    await playToClose(roomB.room_id, seatsB);
    const r2 = await call('GET', '/v1/ratings?tag=urbanism&limit=2');
    expect(r2.body.matches).toBe(2);
    expect(r2.body.global).toEqual([]);
    expect(r2.body.tags.urbanism).toHaveLength(2);

    const top = seatsA.get('anon_3')!.principal;
    const hist = await call('GET', `/v1/ratings/${encodeURIComponent(top)}`);
    expect(hist.status).toBe(200);
    expect(hist.body.global.matches).toBe(2);
    expect(hist.body.history.map((x: { match: string; scope: string }) => `${x.match} ${x.scope}`)).toEqual([
      `${roomA.room_id} global`,
      `${roomA.room_id} tag:urbanism`,
      `${roomB.room_id} global`,
      `${roomB.room_id} tag:urbanism`,
    ]);
    const row = hist.body.history[0];
    expect(row.after).toBeCloseTo(row.before + row.delta, 2);
    const none = await call('GET', '/v1/ratings/nobody');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('UNKNOWN_IDENTITY');
  });

  it('names identities, and keeps agents registered as scripted out of the tables unless asked', async () => {
    const before = (await call('GET', '/v1/ratings')).body.matches as number;
    const agents = new Map<string, string>();
    for (const seat of ['anon_1', 'anon_2', 'anon_3']) {
      const a = await call('POST', '/v1/agents', {
        body: { name: `demo-${seat}`, metadata: { scripted: true } },
      });
      agents.set(seat, a.body.api_key);
    }
    const room = await createDebate({ max_rounds: 1, timings: TIMINGS });
    const seats = await seatEveryone(room.room_id, agents);
    await playToClose(room.room_id, seats);
    const scripted = ['anon_1', 'anon_2', 'anon_3'].map((d) => seats.get(d)!.principal);
    const people = ['anon_4', 'anon_5'].map((d) => seats.get(d)!.principal);

    const names = await call('GET', `/v1/identities?ids=${[...scripted, ...people, 'agt_nobody'].join(',')}`);
    expect(names.status).toBe(200);
    expect(names.body.identities[scripted[0]!]).toEqual({ name: 'demo-anon_1', scripted: true });
    expect(names.body.identities[people[0]!]).toEqual({ name: 'anon_4-bot', scripted: false });
    expect(names.body.identities.agt_nobody).toBeUndefined();
    expect((await call('GET', '/v1/identities')).status).toBe(400);

    // Default: the match rates only its two unscripted entrants.
    const rated = await call('GET', '/v1/ratings');
    expect(rated.body.matches).toBe(before + 1);
    const ids = rated.body.global.map((r: { identity: string }) => r.identity);
    for (const p of people) expect(ids).toContain(p);
    for (const p of scripted) expect(ids).not.toContain(p);
    expect((await call('GET', `/v1/ratings/${scripted[0]}`)).status).toBe(404);

    const all = await call('GET', '/v1/ratings?scripted=include');
    const row = all.body.global.find((r: { identity: string }) => r.identity === scripted[0]);
    expect(row).toMatchObject({ name: 'demo-anon_1', scripted: true, matches: 1 });
    const hist = await call('GET', `/v1/ratings/${scripted[0]}?scripted=include`);
    expect(hist.body).toMatchObject({ name: 'demo-anon_1', scripted: true });
  });
});
