// The swarm's NATS settings against the real nats-server: DB8_SWARM_NATS_URL may list a cluster's
// servers (the first dead here) and the node still asks and folds; DB8_SWARM_STREAM_REPLICAS reaches
// the stream (a single, non-clustered server refuses three replicas, so the node does not start).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { NATS_URL, type SwarmNode, startSwarmNode } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const LIVE = NATS_URL.replace(/^nats:\/\//, '');
let A: SwarmNode | undefined;
afterAll(async () => {
  await A?.close();
});

describe('swarm NATS settings', () => {
  it('a server list whose first server is dead: the node asks and folds', async () => {
    A = await startSwarmNode('listed', {
      prefix: `n${RUN}.`,
      stream: `SWARM_N${RUN}`,
      settings: {},
      env: { DB8_SWARM_NATS_URL: `127.0.0.1:1, ${LIVE}` },
    });
    const asked = await A.call('POST', '/v1/swarm/questions', {
      ask: { text: 'Over a cluster list?', tags: ['nats'], scope: 'global', ttl_sec: 600 },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(201);
    expect(asked.json.status).toBe('opened');
  });

  it('DB8_SWARM_STREAM_REPLICAS reaches the stream: three replicas on one server do not start', async () => {
    await expect(
      startSwarmNode('replicated', {
        prefix: `nr${RUN}.`,
        stream: `SWARM_NR${RUN}`,
        settings: {},
        env: { DB8_SWARM_STREAM_REPLICAS: '3' },
      }),
    ).rejects.toThrow(/replica/i);
  });
});
