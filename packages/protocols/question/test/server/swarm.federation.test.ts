// Issue 23 through nodes on one stream: scope enforced (a node of another federation neither opens a
// federation-local question nor gets an input into it), and node keys on a signed roster (a node's
// id is bound to its key; the reputation a filter uses is the roster's for the relaying node).
import { canonicalize, ed25519 } from '@db8/core';
import { afterAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject, signRoster } from '../../rules/index.ts';
import { swarmOptions } from '../../server/options.ts';
import { type MemoryNode, type MemoryStream, memorySwarm } from './swarm-memory.ts';

const nodes: MemoryNode[] = [];
afterAll(async () => {
  for (const n of nodes) await n.close();
});

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

const client = (n: number) => {
  const seed = new Uint8Array(32).fill(n);
  return { seed, participant: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
};

function clientJoin(qid: string, who: ReturnType<typeof client>, over: Record<string, unknown>) {
  return signObject(
    {
      'schema/v': 1,
      type: 'swarm/room-join',
      'question/id': qid,
      'input/id': `join-${Math.random().toString(36).slice(2)}`,
      'created-at': new Date().toISOString(),
      'sender/node-id': 'node:m1',
      'sender/participant-id': who.participant,
      'responder/models': [],
      'responder/languages': ['en'],
      'responder/tags': ['t'],
      ...over,
    },
    SIGNATURE_DOMAINS.room,
    who.seed,
  );
}

const ask = (n: MemoryNode, scope: string, extra: Record<string, unknown> = {}) =>
  call(n, 'POST', '/v1/swarm/questions', { ask: { text: 'Q?', tags: ['t'], scope, ttl_sec: 600, ...extra } });

describe('scope: a federation-local question stays in its federation', () => {
  let stream: MemoryStream;
  let one: MemoryNode;
  let two: MemoryNode;

  it('a node of another federation does not open it, and its inputs are refused', async () => {
    const swarm = await memorySwarm(2, Date.now, (i) => ({
      DB8_SWARM_FEDERATION_ID: i === 0 ? 'federation:one' : 'federation:two',
    }));
    nodes.push(...swarm.nodes);
    stream = swarm.stream;
    [one, two] = swarm.nodes as [MemoryNode, MemoryNode];

    const asked = await ask(one, 'federation-local');
    expect(asked.status, JSON.stringify(asked.json)).toBe(201);
    const qid = asked.json.question_id as string;
    expect(two.refusals.at(-1)).toMatchObject({ code: 'OUT_OF_SCOPE' });
    expect((await call(two, 'GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`)).status).toBe(404);

    // federation:two's participant, straight onto the stream: every node refuses it.
    const foreign = clientJoin(qid, client(41), { 'sender/federation-id': 'federation:two' });
    const r = await stream.append(
      stream.subjects.room(qid, 'federation-local'),
      new TextEncoder().encode(canonicalize(foreign as never)),
      'foreign-join',
    );
    expect(r?.outcomes[0]).toMatchObject({ status: 'refused', code: 'OUT_OF_SCOPE' });
    const room = (await call(one, 'GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`)).json.room;
    expect(room.participants).toEqual([]);
  });

  it('a node does not publish what its own scope refuses (403 OUT_OF_SCOPE)', async () => {
    const seed = new Uint8Array(32).fill(43);
    const me = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`;
    const env = signObject(
      {
        'schema/v': 1,
        'question/id': 'fed-one-q',
        'created-at': new Date().toISOString(),
        'sender/node-id': 'node:client',
        'sender/participant-id': me,
        'sender/federation-id': 'federation:one',
        'ttl-sec': 60,
        'question/text': 'Q?',
        'question/tags': ['t'],
        'delivery/scope': 'federation-local',
        'delivery/response-channel-id': 'fed-one-q',
        'request/exposure-mode': 'federation-local',
        'reward/mode': 'none',
      },
      SIGNATURE_DOMAINS.question,
      seed,
    );
    const before = stream.messages.length;
    const r = await call(two, 'POST', '/v1/swarm/questions', { envelope: env });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('OUT_OF_SCOPE');
    expect(stream.messages.length).toBe(before);
  });
});

describe('node keys on a signed roster', () => {
  const fedKey = new Uint8Array(32).fill(70);
  const nodeKey = (i: number) =>
    didKeyFromPublicKey(ed25519.publicKeyFromSeed(new Uint8Array(32).fill(100 + i)));
  const roster = signRoster(
    {
      type: 'db8/swarm/roster',
      'issued-at': '2026-11-01T00:00:00Z',
      'federation/id': 'federation:one',
      'roster/version': 1,
      nodes: [
        { 'node/id': 'node:m0', key: nodeKey(0), reputation: 1 },
        { 'node/id': 'node:m1', key: nodeKey(1), reputation: 0.9 },
      ],
    },
    fedKey,
  );
  const env = {
    DB8_SWARM_FEDERATION_ID: 'federation:one',
    DB8_SWARM_ROSTER: JSON.stringify(roster),
    DB8_SWARM_FEDERATION_KEY: didKeyFromPublicKey(ed25519.publicKeyFromSeed(fedKey)),
  };

  it('a node starts only with a roster signed by the federation key that names it with its key', () => {
    const k = ed25519.publicKeyFromSeed(new Uint8Array(32).fill(100));
    expect(
      swarmOptions({ ...env, DB8_SWARM_NODE_ID: 'node:m0' }, null, k).settings.roster?.nodes,
    ).toHaveLength(2);
    const fail = (e: Record<string, string>, key = k) => {
      try {
        swarmOptions(e, null, key);
        return 'started';
      } catch (err) {
        return (err as { code?: string }).code;
      }
    };
    expect(fail({ ...env, DB8_SWARM_NODE_ID: 'node:m9' })).toBe('BAD_CONFIG');
    expect(fail({ ...env, DB8_SWARM_NODE_ID: 'node:m1' })).toBe('BAD_CONFIG'); // m0's key, m1's id
    expect(fail({ ...env, DB8_SWARM_NODE_ID: 'node:m0', DB8_SWARM_FEDERATION_KEY: nodeKey(5) })).toBe(
      'BAD_CONFIG',
    );
    expect(
      fail({ DB8_SWARM_NODE_ID: 'node:m0', DB8_SWARM_ROOM_SETTINGS: JSON.stringify({ roster: {} }) }),
    ).toBe('BAD_CONFIG');
    // Upstream's nym certificates name a council:did:key issuer: a node trusting any other id would trust nothing.
    const trusting = (issuer: string) =>
      fail({
        ...env,
        DB8_SWARM_NODE_ID: 'node:m0',
        DB8_SWARM_ROOM_SETTINGS: JSON.stringify({ trust: { issuers: [issuer] } }),
      });
    expect(trusting(nodeKey(5))).toBe('BAD_CONFIG');
    expect(trusting(`council:${nodeKey(5)}`)).toBe('started');
  });

  it('the filter uses the responder’s record its node attests, bounded by the roster; a node id is bound to its key', async () => {
    const swarm = await memorySwarm(2, Date.now, env);
    nodes.push(...swarm.nodes);
    const [a, b] = swarm.nodes as [MemoryNode, MemoryNode];
    const joinDraft = {
      type: 'swarm/room-join',
      'responder/models': [],
      'responder/languages': ['en'],
      'responder/tags': ['t'],
      'responder/reputation': 1,
    };
    const high = (await ask(a, 'global', { min_reputation: 0.9 })).json.question_id as string;
    const highInputs = `/v1/swarm/questions/${encodeURIComponent(high)}/inputs`;
    const refused = await call(b, 'POST', highInputs, { draft: joinDraft });
    expect(refused.json.error?.code).toBe('REPUTATION_TOO_LOW');

    const low = (await ask(a, 'global', { min_reputation: 0.5 })).json.question_id as string;
    const lowPath = `/v1/swarm/questions/${encodeURIComponent(low)}`;
    expect((await call(b, 'POST', `${lowPath}/inputs`, { draft: joinDraft })).status).toBe(200);
    // A new responder (0 answers, 0 accepted): (0 + 1) / (0 + 2), under node:m1's 0.9 — the same on both nodes.
    const figures = async (path: string) =>
      Promise.all(
        [a, b].map(async (n) =>
          (await call(n, 'GET', path)).json.room.participants.map(
            (p: { node: string; reputation: number }) => [p.node, p.reputation],
          ),
        ),
      );
    expect(await figures(lowPath)).toEqual([[['node:m1', 0.5]], [['node:m1', 0.5]]]);

    // Its answer, accepted by the asker on node:m0 (another roster node), in a room then closed.
    const answered = await call(b, 'POST', `${lowPath}/inputs`, {
      draft: {
        type: 'swarm/room-message',
        'input/id': 'answer-1',
        'message/kind': 'answer',
        'message/text': 'Yes.',
        'origin/class': 'node-generated',
        'origin/speaker': 'agent:b',
      },
    });
    expect(answered.status).toBe(200);
    const verdict = {
      type: 'swarm/room-verdict',
      'verdict/input-id': 'answer-1',
      'verdict/decision': 'accept',
    };
    expect((await call(a, 'POST', `${lowPath}/inputs`, { draft: verdict })).status).toBe(200);
    const closeDraft = { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' };
    expect((await call(a, 'POST', `${lowPath}/inputs`, { draft: closeDraft })).status).toBe(200);

    // 1 of 1: (1 + 1) / (1 + 2) = 2/3 >= 0.6, still under 0.9. The claim of 1 never counted.
    const mid = (await ask(a, 'global', { min_reputation: 0.6 })).json.question_id as string;
    const midPath = `/v1/swarm/questions/${encodeURIComponent(mid)}`;
    expect((await call(b, 'POST', `${midPath}/inputs`, { draft: joinDraft })).status).toBe(200);
    expect(await figures(midPath)).toEqual([[['node:m1', 2 / 3]], [['node:m1', 2 / 3]]]);
    // And the 0.9 question still refuses it: 2/3 < 0.9, whatever it claims.
    expect((await call(b, 'POST', highInputs, { draft: joinDraft })).json.error?.code).toBe(
      'REPUTATION_TOO_LOW',
    );

    // A client's join naming node:m0, posted through m1: m1 does not countersign for m0; refused.
    const impostor = clientJoin(mid, client(44), {
      'sender/node-id': 'node:m0',
      'sender/federation-id': 'federation:one',
    });
    const r = await call(b, 'POST', `${midPath}/inputs`, { input: impostor });
    expect(r.json.error?.code).toBe('UNVERIFIED_NODE');
  });
});
