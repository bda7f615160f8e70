// Issue 23 "history retention": a closed question room is purged from the store
// DB8_SWARM_RETENTION_SEC after it closed, on every node; its reads answer 404 everywhere; an open
// room is kept; and refolding the stream (a restart, a new consumer) does not bring it back. The
// nodes' clock is injected: no wall-clock waits.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_SEC, swarmOptions } from '../../server/options.ts';
import { Replica } from '../../server/replica.ts';
import { purgeClosedRooms } from '../../server/retention.ts';
import { roomIdOf } from '../../server/subjects.ts';
import { type MemoryNode, memorySwarm } from './swarm-memory.ts';

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

const RETENTION_SEC = 3600;

describe('history retention', () => {
  it('purges a closed room on every node after the retention, keeps open ones, and a refold does not resurrect it', async () => {
    // The asks' created-at is the routes' Date.now(); the nodes' and the stream's clock starts there and only moves by hand.
    let now = Date.now();
    const swarm = await memorySwarm(2, () => now, {
      DB8_SWARM_RETENTION_SEC: String(RETENTION_SEC),
      DB8_SWARM_MAX_TTL_SEC: '600',
    });
    nodes.push(...swarm.nodes);
    const [a, b] = swarm.nodes as [MemoryNode, MemoryNode];
    const ask = async () =>
      (
        await call(a, 'POST', '/v1/swarm/questions', {
          ask: { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 300 },
        })
      ).json.question_id as string;
    const closed = await ask();
    const open = await ask();

    const path = (q: string) => `/v1/swarm/questions/${encodeURIComponent(q)}`;
    const draft = { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' };
    expect((await call(a, 'POST', `${path(closed)}/inputs`, { draft })).status).toBe(200);
    const closedAt = now;
    const statuses = (q: string) =>
      Promise.all([a, b].map(async (n) => (await call(n, 'GET', path(q))).status));
    const purgeAll = () =>
      Promise.all([a, b].map((n) => purgeClosedRooms(n.runtime, RETENTION_SEC * 1000, n.runtime.now())));

    // One millisecond before the retention has passed: nothing is purged.
    now = closedAt + RETENTION_SEC * 1000 - 1;
    expect(await purgeAll()).toEqual([[], []]);
    expect(await statuses(closed)).toEqual([200, 200]);

    // At the retention: the closed room is purged on both nodes, the open one kept.
    now = closedAt + RETENTION_SEC * 1000;
    expect(await purgeAll()).toEqual([[roomIdOf(closed)], [roomIdOf(closed)]]);
    expect(await statuses(closed)).toEqual([404, 404]);
    expect(await statuses(open)).toEqual([200, 200]);
    for (const n of [a, b]) {
      expect((await call(n, 'GET', `/v1/rooms/${roomIdOf(closed)}`)).status).toBe(404);
      const listed = (await call(n, 'GET', '/v1/swarm/questions')).json.questions.map(
        (q: { question_id: string }) => q.question_id,
      );
      expect(listed).toContain(open);
      expect(listed).not.toContain(closed);
    }

    // A restart that refolds the whole stream (a fresh consumer on the same store): the purged
    // question is not opened again (its tombstone, not a clock), and its room stays gone.
    for (const n of [a, b]) {
      n.runtime.forget();
      const fresh = new Replica(n.runtime, swarm.stream.subjects, swarm.opts);
      const outcomes = [];
      for (const m of swarm.stream.messages) outcomes.push(await fresh.fold(m));
      expect(outcomes[0]).toMatchObject({
        status: 'refused',
        code: 'REPLAYED',
        message: expect.stringMatching(/purged/),
      });
      expect(outcomes.some((o) => o.status === 'opened')).toBe(false);
    }
    expect(await statuses(closed)).toEqual([404, 404]);
    expect(await statuses(open)).toEqual([200, 200]);
  });
});

describe('DB8_SWARM_RETENTION_SEC', () => {
  const key = new Uint8Array(32).fill(7);
  const start = (env: Record<string, string>) => {
    try {
      return swarmOptions(env, null, key).retentionMs;
    } catch (err) {
      return (err as { code?: string }).code;
    }
  };

  it('defaults to 30 days; less than a minute does not start', () => {
    expect(start({})).toBe(DEFAULT_RETENTION_SEC * 1000);
    expect(DEFAULT_RETENTION_SEC).toBe(30 * 86_400); // the default docs/swarm.md "Limits" states
    expect(start({ DB8_SWARM_RETENTION_SEC: '60' })).toBe(60_000);
    expect(start({ DB8_SWARM_RETENTION_SEC: '59' })).toBe('BAD_CONFIG');
  });
});
