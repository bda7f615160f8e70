// Issue 23: secretary takeover is automatic under the federation's `roster-election` policy. When the
// asker lapses, every node runs the same election on its copy; only the elected node's takeover is
// folded (another node's is NOT_ELECTED), and its scripted secretary summarises and closes.
import { canonicalize, ed25519, hashCanonical } from '@db8/core';
import { afterAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, signRoster } from '../../rules/index.ts';
import { nodeInput } from '../../server/node-sign.ts';
import { AutoSecretary } from '../../server/secretary.ts';
import { type MemoryNode, memorySwarm } from './swarm-memory.ts';

const nodes: MemoryNode[] = [];
afterAll(async () => {
  for (const n of nodes) await n.close();
});

const fedKey = new Uint8Array(32).fill(70);
const nodeKey = (i: number) =>
  didKeyFromPublicKey(ed25519.publicKeyFromSeed(new Uint8Array(32).fill(100 + i)));
const roster = signRoster(
  {
    type: 'db8/swarm/roster',
    'issued-at': '2026-11-01T00:00:00Z',
    'federation/id': 'federation:one',
    'roster/version': 1,
    'takeover/policy': 'roster-election',
    nodes: [0, 1, 2].map((i) => ({ 'node/id': `node:m${i}`, key: nodeKey(i), reputation: 1 })),
  },
  fedKey,
);

async function call(n: MemoryNode, method: 'GET' | 'POST', url: string, body?: unknown) {
  const r = await n.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${n.admin}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers.
  return { status: r.statusCode, json: r.json() as any };
}

describe('secretary election', () => {
  it('the elected node takes over by itself once the asker lapsed, summarises and closes', async () => {
    let now = Date.now();
    const swarm = await memorySwarm(3, () => now, {
      DB8_SWARM_FEDERATION_ID: 'federation:one',
      DB8_SWARM_ROSTER: JSON.stringify(roster),
      DB8_SWARM_FEDERATION_KEY: didKeyFromPublicKey(ed25519.publicKeyFromSeed(fedKey)),
      DB8_SWARM_ROOM_SETTINGS: JSON.stringify({ presenceLapseMs: 1000 }),
    });
    nodes.push(...swarm.nodes);
    const [a, b, c] = swarm.nodes as [MemoryNode, MemoryNode, MemoryNode];
    const secretaries = swarm.nodes.map(
      (n, i) => new AutoSecretary(n.runtime, swarm.stream.transport(i), n.identity, swarm.opts),
    );

    const asked = await call(a, 'POST', '/v1/swarm/questions', {
      ask: { text: 'Who summarises?', tags: ['t'], scope: 'federation-local', ttl_sec: 600 },
    });
    const qid = asked.json.question_id as string;
    const path = `/v1/swarm/questions/${encodeURIComponent(qid)}`;
    for (const [n, text] of [
      [b, 'B says rotate yearly'],
      [c, 'C says rotate on compromise'],
    ] as const) {
      const join = {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      };
      expect((await call(n, 'POST', `${path}/inputs`, { draft: join })).status).toBe(200);
      const say = {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': text,
        'origin/class': 'node-generated',
        'origin/speaker': 'scripted',
      };
      expect((await call(n, 'POST', `${path}/inputs`, { draft: say })).status).toBe(200);
    }

    // The asker is present: nobody is due.
    for (const s of secretaries) expect(await s.step(qid, now)).toBe('not-due');

    now = Date.now() + 60_000; // past the 1-s lapse, whatever the real time the steps above took
    const rank = (id: string) => hashCanonical([qid, id]);
    const [winner, loser] = rank('node:m1') < rank('node:m2') ? [1, 2] : [2, 1];
    // The loser's node key cannot take over, even trying by hand; the asker's node is no candidate.
    const grab = nodeInput(
      { type: 'swarm/room-takeover' },
      qid,
      swarm.nodes[loser]!.identity,
      swarm.nodes[loser]!.identity,
      now,
    );
    const tried = await swarm.stream.append(
      swarm.stream.subjects.room(qid, 'federation-local'),
      new TextEncoder().encode(canonicalize(grab as never)),
      'grab',
    );
    expect(tried?.outcomes[0]).toMatchObject({ status: 'refused', code: 'NOT_ELECTED' });
    expect(await secretaries[0]!.step(qid, now)).toBe('not-elected');
    // Its turn comes one takeover window after the lapse, should the elected node stay silent.
    expect(await secretaries[loser]!.step(qid, now)).toBe('not-due');

    expect(await secretaries[winner]!.step(qid, now)).toBe('closed');
    for (const n of swarm.nodes) {
      const room = (await call(n, 'GET', path)).json.room;
      expect(room.status).toBe('closed');
      expect(room.secretary).toMatchObject({ node: `node:m${winner}`, via: 'lapse' });
      const summary = room.summaries.at(-1);
      expect(summary.role).toBe('secretary');
      expect(summary.facts).toEqual([
        'scripted: B says rotate yearly',
        'scripted: C says rotate on compromise',
      ]);
      expect(summary.recommendations[0]).toContain('scripted secretary of node:m');
      expect(room.close).toMatchObject({
        resolution: 'accepted-answer',
        role: 'secretary',
        acceptedSummary: summary.key,
      });
    }
  });

  it('when the elected node stays silent past the takeover window, the next in the order takes over', async () => {
    let now = Date.now();
    const swarm = await memorySwarm(3, () => now, {
      DB8_SWARM_FEDERATION_ID: 'federation:one',
      DB8_SWARM_ROSTER: JSON.stringify(roster),
      DB8_SWARM_FEDERATION_KEY: didKeyFromPublicKey(ed25519.publicKeyFromSeed(fedKey)),
      DB8_SWARM_ROOM_SETTINGS: JSON.stringify({ presenceLapseMs: 1000, takeoverWindowMs: 10_000 }),
    });
    nodes.push(...swarm.nodes);
    const [a, b, c] = swarm.nodes as [MemoryNode, MemoryNode, MemoryNode];
    const secretaries = swarm.nodes.map(
      (n, i) => new AutoSecretary(n.runtime, swarm.stream.transport(i), n.identity, swarm.opts),
    );
    const asked = await call(a, 'POST', '/v1/swarm/questions', {
      ask: {
        text: 'Who summarises when the elected node is gone?',
        tags: ['t'],
        scope: 'federation-local',
        ttl_sec: 600,
      },
    });
    const qid = asked.json.question_id as string;
    const path = `/v1/swarm/questions/${encodeURIComponent(qid)}`;
    for (const n of [b, c]) {
      const join = {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      };
      expect((await call(n, 'POST', `${path}/inputs`, { draft: join })).status).toBe(200);
    }
    const rank = (id: string) => hashCanonical([qid, id]);
    const [first, next] = rank('node:m1') < rank('node:m2') ? [1, 2] : [2, 1];
    const lapse = (await call(a, 'GET', path)).json.room.askerLastSeen + 1000;
    const grab = (at: number) =>
      swarm.stream.append(
        swarm.stream.subjects.room(qid, 'federation-local'),
        new TextEncoder().encode(
          canonicalize(
            nodeInput(
              { type: 'swarm/room-takeover' },
              qid,
              swarm.nodes[next]!.identity,
              swarm.nodes[next]!.identity,
              at,
            ) as never,
          ),
        ),
        `grab-${at}`,
      );

    // Within the first window only the elected node may take over; it stays silent (never steps).
    now = lapse + 5_000;
    expect(await secretaries[next]!.step(qid, now)).toBe('not-due');
    expect(await secretaries[next]!.dueAt(qid)).toBe(lapse + 10_000);
    expect((await grab(now))?.outcomes[0]).toMatchObject({ status: 'refused', code: 'NOT_ELECTED' });

    // One window later the next in the order may, on every node alike; its secretary closes.
    now = lapse + 10_000;
    expect(await secretaries[next]!.step(qid, now)).toBe('closed');
    for (const n of swarm.nodes) {
      const room = (await call(n, 'GET', path)).json.room;
      expect(room.status).toBe('closed');
      expect(room.secretary).toMatchObject({ node: `node:m${next}`, via: 'lapse' });
    }
    // The first candidate coming back finds the seat taken.
    expect(await secretaries[first]!.step(qid, now)).toBe('not-due');
  });
});
