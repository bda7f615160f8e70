import type { RunningServer } from 'db8/server';
import { builtinModules } from 'db8/src/server-modules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedServer, startEmbeddedServer } from './started-server.ts';

// Protocol modules on a real server (embedded store, no provider keys): the create-room schema
// documents every module, scripted casts play a poker table and a debate to the end, and a
// debater's identity binding is written in the join's own commit.

let server: RunningServer;
let started: StartedServer;
let admin: string;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
async function api(method: string, path: string, body?: unknown, token = admin): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const scripted = { driver: 'model', provider: 'scripted' } as const;

beforeAll(async () => {
  started = await startEmbeddedServer('db8-modules-');
  server = started.server;
  admin = started.admin;
});

afterAll(async () => {
  await started?.close();
});

describe('protocol modules', () => {
  it('the create-room body in /docs has drivers, room_budget and every module config', async () => {
    const doc = (await api('GET', '/docs/json')).json;
    const body = doc.paths['/v1/rooms'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['protocol', 'config', 'title', 'drivers', 'room_budget']),
    );
    const titles = body.properties.config.anyOf.map((c: { title: string }) => c.title);
    expect(titles.sort()).toEqual(builtinModules.map((m) => m.protocol.name).sort());
    const poker = body.properties.config.anyOf.find((c: { title: string }) => c.title === 'poker');
    expect(poker.properties.bigBlind).toBeDefined();
  });

  it('refuses drivers for a protocol without an agent, and writes nothing', async () => {
    const before = (await api('GET', '/v1/rooms?protocol=sealed-bid')).json.rooms.length;
    const r = await api('POST', '/v1/rooms', {
      protocol: 'sealed-bid',
      config: {
        item: 'a lamp',
        bidders: 2,
        reservePrice: 0,
        biddingWindowMs: 60_000,
        revealWindowMs: 60_000,
        rule: 'first-price',
      },
      drivers: { bidder_1: scripted },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('BAD_DRIVERS');
    expect((await api('GET', '/v1/rooms?protocol=sealed-bid')).json.rooms.length).toBe(before);
  });

  it('scripted seats play a poker table to its last hand', async () => {
    const r = await api('POST', '/v1/rooms', {
      protocol: 'poker',
      title: 'scripted table',
      config: {
        seats: 2,
        smallBlind: 1,
        bigBlind: 2,
        startingStack: 100,
        maxHands: 3,
        actionTimeoutMs: 10_000,
        handIntervalMs: 1,
      },
      drivers: { seat_0: scripted, seat_1: scripted },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const id = r.json.room_id;
    await until('the table to close', async () => {
      const room = (await api('GET', `/v1/rooms/${id}`)).json;
      return room.status === 'closed' ? room : null;
    });
    const drivers = (await api('GET', `/v1/rooms/${id}/drivers`)).json;
    expect(drivers.totals.failures).toBe(0);
    const bets = drivers.calls.filter((c: { decision: string }) => c.decision.startsWith('bet:'));
    expect(bets.length).toBeGreaterThan(0);
    expect(drivers.drivers.seat_0.provider).toBe('scripted');
    // Chips are conserved across the three hands the scripted seats played.
    const st = (await api('GET', `/v1/rooms/${id}/state`)).json;
    expect(st.view.handNumber ?? st.view.hand ?? 3).toBeGreaterThanOrEqual(3);
  });

  it("a debater's identity binding is written in its join's own commit", async () => {
    const r = await api('POST', '/v1/rooms', {
      protocol: 'debate',
      config: { topic: 'Modules?', debaters: 2, judges: 0, viewers: 0 },
    });
    expect(r.status).toBe(201);
    const id = r.json.room_id;
    const agent = (await api('POST', '/v1/agents', { name: 'binder' })).json;
    expect(agent.api_key).toBeDefined();
    const before = { ...server.runtime.stats };
    const join = await api('POST', `/v1/rooms/${id}/join`, { seat: 'anon_1' }, agent.api_key);
    expect(join.status, JSON.stringify(join.json)).toBe(200);
    // One commit carried both entries: the join and the binding.
    expect(server.runtime.stats.batches - before.batches).toBe(1);
    expect(server.runtime.stats.entries - before.entries).toBe(2);
    const entries = (await api('GET', `/v1/rooms/${id}/entries?fromSeq=0`)).json.entries as Array<{
      seq: number;
      kind: string;
      actor: string;
      ts: number;
    }>;
    const j = entries.find((e) => e.kind === 'join' && e.actor === 'anon_1');
    expect(j).toBeDefined();
    const next = entries.find((e) => e.seq === j!.seq + 1);
    // Sealed to the moderator (who binds identities): the public log shows its commitment only.
    expect(next).toMatchObject({ kind: 'action', actor: 'moderator' });
    expect(typeof (next as { commit?: unknown }).commit).toBe('string');
    // A rejoin writes nothing more.
    const head = (await api('GET', `/v1/rooms/${id}`)).json.head_seq;
    await api('POST', `/v1/rooms/${id}/join`, { seat: 'anon_1' }, agent.api_key);
    expect((await api('GET', `/v1/rooms/${id}`)).json.head_seq).toBe(head);
  });

  it('scripted seats play a whole debate to its results', async () => {
    const timings = {
      research_ms: 0,
      submit_ms: 8_000,
      verify_ms: 8_000,
      continue_vote_ms: 3_000,
      final_submit_ms: 8_000,
      final_vote_ms: 3_000,
      results_ms: 1,
      reveal_ms: 1,
    };
    const r = await api('POST', '/v1/rooms', {
      protocol: 'debate',
      config: { topic: 'Should scripts debate?', debaters: 2, judges: 1, viewers: 0, max_rounds: 1, timings },
      drivers: { anon_1: scripted, anon_2: scripted, judge_1: scripted, fact_checker: scripted },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const id = r.json.room_id;
    await until(
      'the debate to close',
      async () => {
        const room = (await api('GET', `/v1/rooms/${id}`)).json;
        return room.status === 'closed' ? room : null;
      },
      90_000,
    );
    const drivers = (await api('GET', `/v1/rooms/${id}/drivers`)).json;
    expect(drivers.totals.failures).toBe(0);
    const decisions = drivers.calls.map((c: { decision: string }) => c.decision.split(':')[0]);
    expect(decisions).toEqual(expect.arrayContaining(['submit', 'verdict', 'score']));
  }, 120_000);
});

describe('driven seats', () => {
  it('are listed taken and driven; a join naming one is 409 SEAT_DRIVEN with nothing written; a plain join gets another seat', async () => {
    const r = await api('POST', '/v1/rooms', {
      protocol: 'debate',
      config: { topic: 'Who sits where?', debaters: 3, judges: 1, viewers: 0 },
      drivers: { anon_1: scripted },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const id: string = r.json.room_id;
    type SeatWire = { seat: string; taken: boolean; driven?: boolean };
    const seat = (room: { seats: SeatWire[] }, s: string) => room.seats.find((x) => x.seat === s);
    expect(seat(r.json, 'anon_1')).toMatchObject({ taken: true, driven: true });
    expect(seat(r.json, 'anon_2')).toMatchObject({ taken: false, driven: false });
    const listed = (await api('GET', '/v1/rooms?protocol=debate')).json.rooms.find(
      (x: { room_id: string }) => x.room_id === id,
    );
    expect(seat(listed, 'anon_1')).toMatchObject({ taken: true, driven: true });

    const agentKey = async () => (await api('POST', '/v1/agents', { name: 'seat-taker' })).json.api_key;
    const seqBefore = (await api('GET', `/v1/rooms/${id}`)).json.seq;
    const named = await api('POST', `/v1/rooms/${id}/join`, { seat: 'anon_1' }, await agentKey());
    expect(named.status, JSON.stringify(named.json)).toBe(409);
    expect(named.json.error.code).toBe('SEAT_DRIVEN');
    expect((await api('GET', `/v1/rooms/${id}`)).json.seq).toBe(seqBefore);
    // Even the admin cannot take a seat a driver plays.
    expect((await api('POST', `/v1/rooms/${id}/join`, { seat: 'anon_1' })).json.error.code).toBe(
      'SEAT_DRIVEN',
    );

    const key = await agentKey();
    const plain = await api('POST', `/v1/rooms/${id}/join`, {}, key);
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    expect(plain.json.seat).toBe('anon_2');
    // A rejoin keeps the seat held.
    expect((await api('POST', `/v1/rooms/${id}/join`, {}, key)).json.seat).toBe('anon_2');
  });
});

describe('/skill.md, followed literally', () => {
  it('an agent onboards to a sealed-bid room with nothing but the documents', async () => {
    const created = await api('POST', '/v1/rooms', {
      protocol: 'sealed-bid',
      title: 'skill walk',
      config: {
        item: 'a lamp',
        bidders: 2,
        reservePrice: 5,
        biddingWindowMs: 60_000,
        revealWindowMs: 60_000,
        rule: 'second-price',
      },
    });
    expect(created.status).toBe(201);
    const text = async (url: string) => {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      return res.text();
    };
    const doc = await text(`${server.url}/skill.md`);
    const found = (re: RegExp) => {
      const m = re.exec(doc);
      if (!m) throw new Error(`/skill.md does not say ${re}`);
      return m[1]!;
    };
    const version = found(/protocol_version: (\S+)/);
    const post = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    };
    // 1. Register.
    const reg = await post(found(/`POST (\S+\/v1\/agents)/), { name: 'literal' });
    expect(reg.status).toBe(201);
    const apiKey: string = reg.json.api_key;
    // 2. Find the room and its protocol's guide.
    const list = await fetch(found(/`GET (\S+\/v1\/rooms\?status=open)`/));
    const room = (
      (await list.json()).rooms as Array<{ room_id: string; title: string; protocol: string }>
    ).find((r) => r.title === 'skill walk')!;
    const guide = await text(found(new RegExp(`- ${room.protocol}: (\\S+)`)));
    expect(guide).toContain('"bid"');
    // 3. Join, read the state, act with the documented body.
    const join = await post(
      found(/`POST (\S+\/v1\/rooms\/<room_id>\/join)`/).replace('<room_id>', room.room_id),
      { client_protocol_version: version },
      apiKey,
    );
    expect(join.status, JSON.stringify(join.json)).toBe(200);
    const token: string = join.json.session_token;
    const stateUrl = found(/`GET (\S+\/v1\/rooms\/<room_id>\/state)`/).replace('<room_id>', room.room_id);
    const st = await (await fetch(stateUrl, { headers: { authorization: `Bearer ${token}` } })).json();
    const offer = st.legal.actions[0] as { type: string; minAmount: number };
    expect(offer.type).toBe('bid');
    const act = await post(
      found(/`POST (\S+\/v1\/rooms\/<room_id>\/actions)`/).replace('<room_id>', room.room_id),
      { seat: join.json.seat, action: { type: 'bid', amount: offer.minAmount }, client_nonce: 'literal-1' },
      token,
    );
    expect(act.status, JSON.stringify(act.json)).toBe(200);
    expect(act.json).toMatchObject({ room_id: room.room_id, duplicate: false });
  });

  it('every protocol has a guide; an unknown one is a 404 naming the known ones', async () => {
    for (const m of builtinModules) {
      const res = await fetch(`${server.url}/v1/protocols/${m.protocol.name}/skill.md`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(m.protocol.name);
    }
    const res = await fetch(`${server.url}/v1/protocols/nope/skill.md`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({ code: 'UNKNOWN_PROTOCOL' });
  });
});
