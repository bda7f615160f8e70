// Issue 23, "no poison message": random and hostile sequences of swarm messages — questions with
// leap-second, ancient or garbage times, TTLs of 1e300, ids with CR/LF/NUL, texts cut through an
// emoji, forged, mutated and misrouted inputs, garbage on every subject, REST writes — folded by two
// in-process nodes from one stream. After each sequence: no read answers 5xx, no state holds NaN,
// Infinity or a time no Date can hold, every write through REST answered below 500, and both
// nodes' copies of every room have one Merkle root. (The same on a real nats-server:
// swarm.fuzz.int.test.ts.)
import { randomBytes } from 'node:crypto';
import { canonicalize } from '@db8/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStep, OPENING, type Step, StepArb } from './swarm-fuzz.ts';
import { badNumbers, checkReads } from './swarm-fuzz-checks.ts';
import { type MemoryNode, type MemoryStream, memorySwarm } from './swarm-memory.ts';

const T0 = Date.now();
let offset = 0;
const clock = () => T0 + offset;
let stream: MemoryStream;
let nodes: MemoryNode[];

beforeAll(async () => {
  ({ stream, nodes } = await memorySwarm(2, clock));
});
afterAll(async () => {
  for (const n of nodes ?? []) await n.close();
});

const RUN = randomBytes(3).toString('hex');

function bytesOf(body: unknown): Uint8Array {
  if (body && typeof body === 'object' && 'raw' in body) return new TextEncoder().encode(String(body.raw));
  return new TextEncoder().encode(canonicalize(body as never));
}

async function runSteps(steps: readonly Step[], run: string): Promise<number[]> {
  const statuses: number[] = [];
  const sent: Array<{ subject: string; data: Uint8Array }> = [];
  let seq = 0;
  for (const step of steps) {
    let b: ReturnType<typeof buildStep>;
    try {
      b = buildStep(step, { run, now: clock(), seq: seq++, subjects: stream.subjects });
    } catch {
      continue; // a body canonical JSON cannot hold cannot be signed or sent either
    }
    if (b.advanceMs) offset += b.advanceMs;
    if (b.stream) {
      sent.push({ subject: b.stream.subject, data: bytesOf(b.stream.body) });
      await stream.append(b.stream.subject, bytesOf(b.stream.body), b.stream.id);
    }
    const again = b.replay === undefined ? undefined : sent.at(-1 - (b.replay % Math.max(1, sent.length)));
    if (again) await stream.append(again.subject, again.data, `${run}-again-${seq}`);
    if (b.rest) {
      const node = nodes[b.rest.node % nodes.length] as MemoryNode;
      const r = await node.app.inject({
        method: b.rest.method,
        url: b.rest.path,
        headers: { authorization: `Bearer ${node.admin}` },
        payload: b.rest.body as object,
      });
      statuses.push(r.statusCode);
      if (r.statusCode >= 500) throw new Error(`${b.rest.path} answered ${r.statusCode}: ${r.body}`);
    }
  }
  return statuses;
}

async function rootsOf(node: MemoryNode, only?: (qid: string) => boolean) {
  return checkReads(async (path) => {
    const r = await node.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${node.admin}` },
    });
    return { status: r.statusCode, json: r.json() };
  }, only);
}

describe('swarm fuzz: two in-process nodes, one stream', () => {
  it('random and hostile sequences never give a 5xx, a bad number or two roots', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(StepArb, { minLength: 5, maxLength: 25 }), async (steps) => {
        run += 1;
        await runSteps([...OPENING, ...steps], `${RUN}${run}`);
        // Nothing the gate admitted was dropped by a failing fold (an accepted question always opens).
        expect(Object.keys(stream.outcomes).filter((k) => k.startsWith('ignored:fold'))).toEqual([]);
        const mine = (qid: string) => qid.includes(`${RUN}${run}`);
        const [a, b] = await Promise.all(nodes.map((n) => rootsOf(n, mine)));
        expect([...(b as Map<string, string>).entries()]).toEqual([...(a as Map<string, string>).entries()]);
        for (const n of nodes) {
          for (const room of await n.runtime.listRooms({ protocol: 'question', limit: 500 })) {
            const st = await n.runtime.protocolState(room.id);
            expect(badNumbers(st.state), room.id).toEqual([]);
          }
        }
      }),
      { numRuns: 30 },
    );
    // The run reached what it is about: rooms opened and written to, refusals of many kinds.
    const rooms = (await nodes[0]?.runtime.listRooms({ protocol: 'question', limit: 500 })) ?? [];
    expect(rooms.length).toBeGreaterThan(3);
    expect(rooms.some((r) => r.seq > 1)).toBe(true);
    const codes = new Set(nodes[0]?.refusals.map((r) => r.code));
    expect(codes.size).toBeGreaterThan(6);
    for (const c of ['SCHEMA_INVALID', 'BAD_SIGNATURE', 'CHANNEL_MISMATCH']) expect(codes).toContain(c);
  });

  it('the hostile questions of the issue, one by one: each opens a sane room or is refused', async () => {
    const cases: Array<[string, Partial<Extract<Step, { kind: 'question' }>>]> = [
      ['a leap second today', { created: { fixed: 'leap' }, ttl: 60 }],
      ['a leap second ten years ago', { created: { fixed: '2016-12-31T23:59:60Z' }, ttl: 3600 }],
      ['year 0001', { created: { fixed: '0001-01-01T00:00:00Z' }, ttl: 604_800 }],
      ['a TTL of 1e300', { ttl: 1e300 }],
      ['a 30-day TTL', { ttl: 2_592_000 }],
      ['a title cut through an emoji', { text: `${'a'.repeat(199)}😀 cut` }],
      ['a NUL in the text', { text: '\u0000\r\nPRIVMSG #x :hi' }],
    ];
    let i = 0;
    for (const [what, over] of cases) {
      i += 1;
      const step = { ...OPENING[0], text: 'Q?', ttl: 60, created: { off: 0 }, ...over } as Step;
      const before = stream.messages.length;
      await runSteps([step], `${RUN}h${i}`);
      const folded = stream.messages.slice(before);
      expect(folded.length, what).toBe(1);
    }
    // Every node folded every one of them to a decision: none was dropped by a failing fold.
    expect(Object.keys(stream.outcomes).filter((k) => k.startsWith('ignored:fold'))).toEqual([]);
    expect(stream.outcomes.opened).toBeGreaterThan(0);
    const [a, b] = await Promise.all(nodes.map((n) => rootsOf(n)));
    expect([...(b as Map<string, string>).entries()]).toEqual([...(a as Map<string, string>).entries()]);
  });
});
