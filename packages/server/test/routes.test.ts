import {
  ed25519,
  ed25519Verifier,
  formatSshPublicKey,
  fromHex,
  signSshsig,
  verifyBundleText,
  verifyCheckpoint,
  verifyInclusion,
} from '@db8/core';
import { describe, expect, it } from 'vitest';
import { AUCTION, adminToken, auctionWithBidders, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

describe('rooms', () => {
  it('admins create rooms; others cannot; bad input is 4xx', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const r = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'sealed-bid', config: AUCTION },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      protocol: 'sealed-bid',
      status: 'open',
      seq: 0,
      seats: [
        { seat: 'bidder_1', role: 'bidder', taken: false },
        { seat: 'bidder_2', role: 'bidder', taken: false },
        { seat: 'auctioneer', role: 'auctioneer', taken: false },
      ],
    });
    expect(r.body.deadline_ms).toBe(h.clock.now + 60_000);
    const agent = await call(h, 'POST', '/v1/agents', { body: {} });
    expect(
      (
        await call(h, 'POST', '/v1/rooms', {
          token: agent.body.api_key,
          body: { protocol: 'sealed-bid', config: AUCTION },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(h, 'POST', '/v1/rooms', { body: { protocol: 'sealed-bid', config: AUCTION } })).status,
    ).toBe(401);
    const bad = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'sealed-bid', config: { item: '' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('BAD_CONFIG');
    const unknown = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'chess', config: {} },
    });
    expect(unknown.body.error.code).toBe('UNKNOWN_PROTOCOL');
  });

  it('lists (paged, filtered) and gets rooms; 404 for unknown', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      ids.push(
        (
          await call(h, 'POST', '/v1/rooms', {
            token: admin,
            body: { protocol: 'sealed-bid', config: AUCTION },
          })
        ).body.room_id,
      );
    }
    const p1 = await call(h, 'GET', '/v1/rooms?limit=2&protocol=sealed-bid');
    expect(p1.body.rooms.map((r: { room_id: string }) => r.room_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.next_cursor).toEqual(expect.any(String));
    const p2 = await call(
      h,
      'GET',
      `/v1/rooms?limit=2&protocol=sealed-bid&cursor=${encodeURIComponent(p1.body.next_cursor)}`,
    );
    expect(p2.body.rooms[0].room_id).toBe(ids[0]);
    expect((await call(h, 'GET', `/v1/rooms/${ids[0]}`)).body.room_id).toBe(ids[0]);
    const missing = await call(h, 'GET', '/v1/rooms/room_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ROOM_NOT_FOUND');
    expect((await call(h, 'GET', '/v1/rooms?limit=0')).status).toBe(400);
    expect((await call(h, 'GET', '/v1/rooms/bad.id')).status).toBe(400);
  });
});

describe('joining', () => {
  it('agents join with their API key; taken seats and old clients are refused', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    const room = await call(h, 'GET', `/v1/rooms/${roomId}`);
    expect(room.body.seats.filter((s: { taken: boolean }) => s.taken)).toHaveLength(2);
    const me = await call(h, 'GET', '/v1/auth/me', { token: seats.bidder_1.token });
    expect(me.body).toEqual({
      principal: seats.bidder_1.agent,
      name: 'bidder_1',
      role: 'agent',
      room_id: roomId,
      seat: 'bidder_1',
    });
    // joining again returns the same seat
    const again = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: seats.bidder_1.apiKey,
      body: {},
    });
    expect(again.body.seat).toBe('bidder_1');
    const c = await call(h, 'POST', '/v1/agents', { body: {} });
    const taken = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: c.body.api_key,
      body: { seat: 'bidder_1' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('SEAT_TAKEN');
    const old = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: c.body.api_key,
      body: { client_protocol_version: '0.0.9' },
    });
    expect(old.status).toBe(426);
    expect(old.body.error).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: {
        min_supported_protocol_version: '0.1',
        skill_doc_url: expect.stringMatching(/\/skill\.md$/),
      },
    });
    expect((await call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: {} })).status).toBe(401);
  });

  it('people join by invite (admin-made, room-bound, seat-bound)', async () => {
    const h = await apps.make();
    const { admin, roomId } = await auctionWithBidders(h);
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'auctioneer' },
    });
    expect(inv.status).toBe(201);
    expect(inv.body.url).toContain(`#invite=${inv.body.invite}`);
    const noAdmin = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, { body: {} });
    expect(noAdmin.status).toBe(401);
    const other = (
      await call(h, 'POST', '/v1/rooms', { token: admin, body: { protocol: 'sealed-bid', config: AUCTION } })
    ).body.room_id;
    const wrongRoom = await call(h, 'POST', `/v1/rooms/${other}/join`, { body: { invite: inv.body.invite } });
    expect(wrongRoom.status).toBe(403);
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: { invite: inv.body.invite } });
    expect(j.status).toBe(200);
    expect(j.body).toMatchObject({ seat: 'auctioneer', principal: expect.stringMatching(/^guest_/) });
    const me = await call(h, 'GET', '/v1/auth/me', { token: j.body.session_token });
    expect(me.body).toMatchObject({ role: 'person', seat: 'auctioneer', room_id: roomId });
    const short = await call(h, 'POST', `/v1/rooms/${other}/invites`, {
      token: admin,
      body: { ttl_sec: 60 },
    });
    h.clock.advance(61_000);
    const expired = await call(h, 'POST', `/v1/rooms/${other}/join`, { body: { invite: short.body.invite } });
    expect(expired.status).toBe(401);
    // a session token is not an invite
    const asInvite = await call(h, 'POST', `/v1/rooms/${other}/join`, {
      body: { invite: j.body.session_token },
    });
    expect(asInvite.status).toBe(401);
  });
});

describe('acting, reading and privacy', () => {
  it('sealed bids are seen only by their seat (and admins) until the reveal', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    const bid = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_1.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: 42 } },
    });
    expect(bid.status, JSON.stringify(bid.body)).toBe(200);
    expect(bid.body).toMatchObject({ room_id: roomId, duplicate: false, seq: expect.any(Number) });
    const seq = bid.body.seq;

    const entry = async (token?: string) =>
      (await call(h, 'GET', `/v1/rooms/${roomId}/entries?fromSeq=${seq}&limit=1`, { token })).body.entries[0];
    expect((await entry()).sealed).toBeUndefined();
    expect((await entry()).commit).toMatch(/^[0-9a-f]{64}$/);
    expect((await entry(seats.bidder_2.token)).sealed).toBeUndefined();
    expect((await entry(seats.bidder_1.token)).sealed.payload).toMatchObject({ amount: 42 });
    expect((await entry(admin)).sealed.payload).toMatchObject({ amount: 42 });
    // the API key (unscoped) sees its own seat too
    expect((await entry(seats.bidder_1.apiKey)).sealed.payload).toMatchObject({ amount: 42 });

    const s1 = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: seats.bidder_1.token });
    const s2 = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: seats.bidder_2.token });
    const obs = await call(h, 'GET', `/v1/rooms/${roomId}/state`);
    expect(s1.body.viewer).toEqual({ kind: 'seat', seat: 'bidder_1' });
    expect(obs.body.viewer).toEqual({ kind: 'observer' });
    expect(obs.body.legal).toBeNull();
    expect(JSON.stringify(s1.body.view)).toContain('42');
    expect(JSON.stringify(s2.body.view)).not.toContain('42');
    expect(JSON.stringify(obs.body.view)).not.toContain('42');
    expect(s1.body.deadline_ms).toBe(h.clock.now + 60_000);
    expect(s1.body.deadline_unix).toBe(Math.ceil(s1.body.deadline_ms / 1000));
  });

  it('refuses acting without a token, for another seat, or in another room', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    const head = (await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq;
    const act = (token: string | undefined, seat: string, room = roomId) =>
      call(h, 'POST', `/v1/rooms/${room}/actions`, {
        token,
        body: { seat, action: { type: 'bid', amount: 20 } },
      });
    expect((await act(undefined, 'bidder_1')).status).toBe(401);
    const other = await act(seats.bidder_1.token, 'bidder_2');
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('SEAT_NOT_HELD');
    // an unscoped API key may act only for the seat its principal holds (the runtime checks)
    const viaKey = await act(seats.bidder_1.apiKey, 'bidder_2');
    expect(viaKey.status).toBe(403);
    const bad = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_1.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: -5 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('BAD_ACTION');
    expect((await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq).toBe(head);
  });

  it('STALE_SEQ for a stale expected_seq; a retried client_nonce gets the same ack', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    const head = (await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq;
    const body = {
      seat: 'bidder_1',
      action: { type: 'bid', amount: 30 },
      client_nonce: 'n-1',
      expected_seq: head,
    };
    const a1 = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, { token: seats.bidder_1.token, body });
    const a2 = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, { token: seats.bidder_1.token, body });
    expect(a1.body.duplicate).toBe(false);
    expect(a2.body).toEqual({ ...a1.body, duplicate: true });
    const stale = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_2.token,
      body: { seat: 'bidder_2', action: { type: 'bid', amount: 31 }, expected_seq: head },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('STALE_SEQ');
  });

  it('turn tokens: only the seat to act gets one; echoing it is idempotent', async () => {
    const h = await apps.make();
    const { roomId, seats, admin } = await auctionWithBidders(h);
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'auctioneer' },
    });
    const auct = (await call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: { invite: inv.body.invite } }))
      .body.session_token;
    for (const [seat, amount] of [
      ['bidder_1', 50],
      ['bidder_2', 40],
    ] as const) {
      await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
        token: seats[seat].token,
        body: { seat, action: { type: 'bid', amount } },
      });
    }
    h.clock.advance(61_000);
    await h.runtime.tick(roomId);
    const st = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: auct });
    expect(st.body.turn_token).toEqual(expect.any(String));
    expect(st.body.legal.actions).toEqual([{ type: 'confirm' }, { type: 'withdraw' }]);
    const b1 = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: seats.bidder_1.token });
    expect(b1.body.turn_token).toBeNull();
    const body = { seat: 'auctioneer', action: { type: 'confirm' }, turn_token: st.body.turn_token };
    const c1 = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, { token: auct, body });
    const c2 = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, { token: auct, body });
    expect(c1.status, JSON.stringify(c1.body)).toBe(200);
    expect(c2.body).toEqual({ ...c1.body, duplicate: true });
    const closed = await call(h, 'GET', `/v1/rooms/${roomId}/state`);
    expect(closed.body.status).toBe('closed');
    expect(closed.body.deadline_unix).toBeNull();
  });
});

describe('log, proofs, checkpoints, export', () => {
  it('pages the log, proves entries against signed checkpoints, and exports JSONL', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_1.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: 77 } },
    });
    const head = (await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq;
    const all: number[] = [];
    let from: number | null = 0;
    while (from !== null) {
      const page: { body: { entries: Array<{ seq: number }>; next_seq: number | null } } = await call(
        h,
        'GET',
        `/v1/rooms/${roomId}/entries?fromSeq=${from}&limit=2`,
      );
      all.push(...page.body.entries.map((e) => e.seq));
      from = page.body.next_seq;
    }
    expect(all).toEqual(Array.from({ length: head + 1 }, (_, i) => i));

    const proof = await call(h, 'GET', `/v1/rooms/${roomId}/entries/${head}/proof`);
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    const verifier = ed25519Verifier(h.serverKey.noteName, h.serverKey.publicKey);
    const { checkpoint } = verifyCheckpoint(proof.body.checkpoint, [verifier]);
    expect(checkpoint.size).toBe(proof.body.tree_size);
    expect(
      verifyInclusion(
        fromHex(proof.body.leaf_hash),
        proof.body.index,
        proof.body.tree_size,
        proof.body.proof.map(fromHex),
        checkpoint.rootHash,
      ),
    ).toBe(true);
    expect((await call(h, 'GET', `/v1/rooms/${roomId}/entries/999/proof`)).status).toBe(404);

    const cps = await call(h, 'GET', `/v1/rooms/${roomId}/checkpoints`);
    expect(cps.body.checkpoints.length).toBeGreaterThan(0);
    for (const cp of cps.body.checkpoints) {
      const opened = verifyCheckpoint(cp.note, [verifier]).checkpoint;
      expect(opened.size).toBe(cp.size);
      expect(Buffer.from(opened.rootHash).toString('hex')).toBe(cp.root_hash);
    }

    const exp = await call(h, 'GET', `/v1/rooms/${roomId}/export`);
    expect(exp.raw.headers['content-type']).toMatch(/ndjson/);
    // The bundle verifies offline against the pinned server key, and an observer's has no sealed payloads.
    const report = verifyBundleText(exp.raw.body, { pinnedKey: h.serverKey.sshPublicLine });
    expect(report.ok, JSON.stringify(report.firstFailure)).toBe(true);
    expect(report).toMatchObject({ room: roomId, entries: head + 1, keyPinned: true });
    expect(exp.raw.body).not.toContain('"sealed"');
    const mine = await call(h, 'GET', `/v1/rooms/${roomId}/export`, { token: seats.bidder_1.token });
    expect(mine.raw.body).toContain('"sealed"');
    expect(verifyBundleText(mine.raw.body).ok).toBe(true);
    // one flipped byte in an entry and it no longer verifies
    const tampered = exp.raw.body.replace('"kind":"join"', '"kind":"jOin"');
    expect(tampered).not.toBe(exp.raw.body);
    expect(verifyBundleText(tampered).ok).toBe(false);
    expect((await call(h, 'GET', '/v1/rooms/room_missing/export')).status).toBe(404);
  });
});

describe('room certificates', () => {
  it('a seat holder gets a cert; it logs in by SSH to a certified session that can act', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    const k = ed25519.generateKeyPair();
    const cert = await call(h, 'POST', `/v1/rooms/${roomId}/certs`, {
      token: seats.bidder_2.token,
      body: { public_key: formatSshPublicKey(k.publicKey) },
    });
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    expect(cert.body.principal).toBe(`bidder_2@${roomId}`);
    expect(
      (
        await call(h, 'POST', `/v1/rooms/${roomId}/certs`, {
          body: { public_key: formatSshPublicKey(k.publicKey) },
        })
      ).status,
    ).toBe(403);
    const ch = await call(h, 'POST', '/v1/auth/challenge', { body: { room_id: roomId } });
    const sig = signSshsig({
      seed: k.seed,
      namespace: 'db8',
      message: new TextEncoder().encode(ch.body.nonce),
      certificate: cert.body.certificate,
    });
    const v = await call(h, 'POST', '/v1/auth/verify', { body: { nonce: ch.body.nonce, signature: sig } });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body).toMatchObject({ room_id: roomId, seat: 'bidder_2' });
    const act = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: v.body.token,
      body: { seat: 'bidder_2', action: { type: 'bid', amount: 15 } },
    });
    expect(act.status, JSON.stringify(act.body)).toBe(200);
    const wrong = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: v.body.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: 15 } },
    });
    expect(wrong.status).toBe(403);
  });
});

describe('docs', () => {
  it("a room documents itself at /v1/rooms/:id/skill.md; /protocol.json carries each protocol's schemas", async () => {
    const h = await apps.make();
    const { roomId } = await auctionWithBidders(h);
    const r = await h.app.inject({ method: 'GET', url: `/v1/rooms/${roomId}/skill.md` });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain(`room_id: \`${roomId}\``);
    expect(r.body).toContain('`bidder_1` (bidder) — taken');
    expect(r.body).toContain('`auctioneer` (auctioneer)\n');
    expect(r.body).toContain('"const": "bid"');
    expect((await h.app.inject({ method: 'GET', url: '/v1/rooms/room_nope/skill.md' })).statusCode).toBe(404);
    const pj = (await h.app.inject({ method: 'GET', url: '/protocol.json' })).json();
    expect(pj.protocols['sealed-bid'].version).toBe(1);
    expect(pj.protocols['sealed-bid'].config.required).toEqual(expect.arrayContaining(['item', 'bidders']));
  });
});
