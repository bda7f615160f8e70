// Issue 23, "no poison message", on a real nats-server (127.0.0.1:4222): two db8 nodes (own store,
// own key) follow one stream while random and hostile sequences (swarm-fuzz.ts) are published
// straight onto JetStream and written through both nodes' REST. After each sequence: no read on
// either node answers 5xx, no view holds NaN, Infinity or a time no Date can hold, every REST write
// answered below 500, and the nodes' copies of every room reach one Merkle root. First: a 30-day
// question arms its deadline in steps (its tick timer fired at once and re-armed in a loop).
import { randomBytes } from 'node:crypto';
import { canonicalize } from '@db8/core';
import { JetStreamLog } from '@db8/server/src/bus/jetstream.ts';
import fc from 'fast-check';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Subjects } from '../../server/subjects.ts';
import { buildStep, OPENING, type Step, StepArb } from './swarm-fuzz.ts';
import { checkReads } from './swarm-fuzz-checks.ts';
import { NATS_URL, type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = {
  prefix: `z${RUN}.`,
  stream: `SWARM_Z${RUN}`,
  settings: { presenceLapseMs: 1000 },
  // Retention above 30 days, so a 30-day question is admitted and its timer is armed.
  env: { DB8_SWARM_MAX_AGE_SEC: String(31 * 86_400), DB8_SWARM_MAX_TTL_SEC: String(30 * 86_400) },
};
const subjects = new Subjects(run.prefix);
let A: SwarmNode;
let B: SwarmNode;
let nc: NatsConnection;

beforeAll(async () => {
  A = await startSwarmNode('a', run);
  B = await startSwarmNode('b', run);
  nc = await connect({ servers: NATS_URL });
});
afterAll(async () => {
  await Promise.all([A, B].map((n) => n?.close()));
  await nc?.drain();
  const log = await JetStreamLog.connect(NATS_URL);
  await log.deleteStream(run.stream).catch(() => {});
  await log.close();
});

const counts = async (n: SwarmNode) =>
  (await n.call('GET', '/v1/swarm/node')).json.counts as Record<string, number>;
const folded = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

/** Asks a plain question on A and waits until both nodes list it: both have folded all before it. */
async function sentinel(tag: string) {
  const qid = `sentinel-${RUN}-${tag}`;
  const r = await A.call('POST', '/v1/swarm/questions', {
    ask: { text: 'sentinel', tags: ['t'], scope: 'global', ttl_sec: 60, question_id: qid },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  for (const n of [A, B]) {
    await until(
      `${n.name} folded ${qid}`,
      async () => (await n.call('GET', `/v1/swarm/questions/${qid}`)).status === 200,
    );
  }
}

describe('swarm fuzz on a real nats-server: two nodes', () => {
  it('a 30-day question publishes no tick marker before its deadline', async () => {
    await sentinel('warm');
    const before = await Promise.all([A, B].map(counts));
    const r = await A.call('POST', '/v1/swarm/questions', {
      ask: { text: 'A month-long question', tags: ['t'], scope: 'global', ttl_sec: 30 * 86_400 },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    await sentinel('after-30-days');
    const after = await Promise.all([A, B].map(counts));
    // Exactly the question and the sentinel were folded: no marker (each would be one more, `ignored`).
    for (const [i, c] of after.entries()) {
      expect(folded(c) - folded(before[i] as Record<string, number>)).toBe(2);
      expect(c.ignored).toBe(before[i]?.ignored);
    }
  });

  it('random and hostile sequences: no 5xx, no bad number, one root per room', async () => {
    const js = nc.jetstream();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(StepArb, { minLength: 5, maxLength: 20 }), async (steps) => {
        n += 1;
        const tag = `${RUN}${n}`;
        const sent: Array<{ subject: string; data: Uint8Array }> = [];
        let seq = 0;
        for (const step of [...OPENING, ...steps] as Step[]) {
          let b: ReturnType<typeof buildStep>;
          try {
            b = buildStep(step, { run: tag, now: Date.now(), seq: seq++, subjects });
          } catch {
            continue;
          }
          const body = b.stream?.body;
          if (b.stream) {
            const data = new TextEncoder().encode(
              body && typeof body === 'object' && 'raw' in body
                ? String(body.raw)
                : canonicalize(body as never),
            );
            sent.push({ subject: b.stream.subject, data });
            await js.publish(b.stream.subject, data, { msgID: b.stream.id });
          }
          const again =
            b.replay === undefined ? undefined : sent.at(-1 - (b.replay % Math.max(1, sent.length)));
          if (again) await js.publish(again.subject, again.data, { msgID: `${tag}-again-${seq}` });
          if (b.rest) {
            const node = b.rest.node % 2 === 0 ? A : B;
            const r = await node.call(b.rest.method, b.rest.path, b.rest.body);
            if (r.status >= 500)
              throw new Error(`${b.rest.path} answered ${r.status}: ${JSON.stringify(r.json)}`);
          }
        }
        await sentinel(`s${n}`);
        const mine = (qid: string) => qid.includes(tag);
        // Tick markers may still be folding on one node: wait until both hold every room alike.
        await until(
          'one root per room on both nodes',
          async () => {
            const [a, b] = await Promise.all([A, B].map((x) => checkReads((p) => x.call('GET', p), mine)));
            return (
              JSON.stringify([...(a as Map<string, string>)]) ===
              JSON.stringify([...(b as Map<string, string>)])
            );
          },
          20_000,
        );
      }),
      { numRuns: 10 },
    );
    const rooms = (await A.call('GET', '/v1/swarm/questions?status=all&limit=500')).json.questions;
    expect(rooms.length).toBeGreaterThan(5);
  });
});
