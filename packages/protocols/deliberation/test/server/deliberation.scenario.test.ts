import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 24's bar, end to end on a real server (scripted seats, the real sandbox and lesson bank):
// a code task whose tests never pass ends without a winner; a star with a silent spoke still
// completes; the lessons a first session taught are given to a second session on the same task —
// in its log's first entry — counted as used when it ends, and stored once.

let started: StartedServer;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
type Json = any;

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${started.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${started.admin}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function until<T>(what: string, fn: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = await fn();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

const ended = (id: string) =>
  until(`${id} to end`, async () => {
    const s = await api('GET', `/v1/debates/${id}/status`);
    return ['completed', 'failed', 'cancelled'].includes(s.status) ? s.status : null;
  });

const SCRIPTED = ['architect', 'critic', 'reviewer', 'optimizer'].map((role, i) => ({
  name: `s${i}`,
  role,
  provider: 'scripted',
  score: 9 - i * 0.3,
}));

beforeAll(async () => {
  started = await startEmbeddedServer('db8-deliberation-scenario-');
});

afterAll(async () => {
  await started?.close();
});

describe('issue 24 scenario', () => {
  it('a code task whose tests never pass ends without a winner', async () => {
    const { id } = await api('POST', '/v1/debates', {
      topic: 'Export answer, the meaning of life',
      participants: SCRIPTED,
      max_rounds: 1,
      enable_adversarial: false,
      task: {
        kind: 'code',
        language: 'javascript',
        confidence: 0.95,
        tests: `import assert from 'node:assert/strict';
import { answer } from './solution.mjs';
export default { 'never passes': () => assert.equal(answer, 'never') };`,
      },
    });
    expect(await ended(id)).toBe('failed');
    const r = await api('GET', `/v1/debates/${id}/results`);
    expect(r.winner).toBeNull();
    expect(r.failure.code).toBe('NO_PASSING_CODE');
    expect(r.reached_consensus).toBe(false);
    // Every version really ran its tests (not a crash) and failed them; each was analysed too.
    const versions = await until('every version measured', async () => {
      const v = (await api('GET', `/v1/debates/${id}/results`)).code_versions as Json[];
      return v.every((x) => x.test_pass_rate !== null) ? v : null;
    });
    expect(versions.length).toBeGreaterThan(0);
    for (const v of versions) {
      expect(v).toMatchObject({ test_pass_rate: 0, metrics: { tests: 1, failed: 1, crashed: 0 } });
      expect(v.quality_score).toBeGreaterThan(0);
    }
  }, 120_000);

  it('a star with a silent spoke still completes', async () => {
    const { id } = await api('POST', '/v1/debates', {
      topic: 'Pick a retry policy for webhooks',
      participants: [...SCRIPTED.slice(0, 3), { name: 'mute', role: 'optimizer', provider: 'remote' }],
      topology_type: 'star',
      max_rounds: 1,
      min_consensus: 0.5,
      phase_timeout: 1,
    });
    expect(await ended(id)).toBe('completed');
    const r = await api('GET', `/v1/debates/${id}/results`);
    expect(r.winner).not.toBeNull();
    const details = await api('GET', `/v1/debates/${id}`);
    const turns = details.rounds.flatMap((x: Json) => x.responses) as Json[];
    expect(turns.filter((t) => t.seat === 'mute').every((t) => t.action.type === 'failed')).toBe(true);
  }, 120_000);

  it("a first session's lessons are given to a second on the same task, counted and stored once", async () => {
    const body = {
      topic: 'Choose a checksum for the quarterly ledger exports',
      participants: SCRIPTED,
      max_rounds: 1,
      min_consensus: 0.5,
    };
    const first = (await api('POST', '/v1/debates', body)).id as string;
    expect(await ended(first)).toBe('completed');
    const firstConfig = (await api('GET', `/v1/rooms/${first}/entries?fromSeq=0&limit=1`)).entries[0];
    expect(JSON.stringify(firstConfig)).toContain('"lessons":[]');
    const taught = await until('the first session lesson', async () => {
      const hits = (await api('GET', '/v1/deliberation/lessons?q=quarterly%20ledger%20checksum'))
        .hits as Json[];
      const h = hits.find((x) => x.lesson.source === 'consensus');
      return h ? h.lesson : null;
    });
    expect(taught.debateId).toBe(first);

    const second = (await api('POST', '/v1/debates', body)).id as string;
    // The lessons given are in the second session's log, in its first entry (the config).
    const entry = (await api('GET', `/v1/rooms/${second}/entries?fromSeq=0&limit=1`)).entries[0];
    expect(JSON.stringify(entry)).toContain(taught.id);
    expect(await ended(second)).toBe('completed');
    // Used once, successfully; and the second session's identical consensus lesson is the same row.
    const used = await until('the use counted', async () => {
      const l = (await api('GET', `/v1/deliberation/lessons/${taught.id}`)).lesson ?? null;
      return l && l.uses.applied > 0 && l.debateId === second ? l : null;
    });
    expect(used.uses).toMatchObject({ applied: 1, succeeded: 1 });
    const hits = (await api('GET', '/v1/deliberation/lessons?q=quarterly%20ledger%20checksum'))
      .hits as Json[];
    expect(hits.filter((h) => h.lesson.source === 'consensus').map((h) => h.lesson.id)).toEqual([taught.id]);

    // A room made through the generic route gets the bank's lessons too; a request's own are dropped.
    const fake = {
      id: 'made-up',
      title: 'Trust me',
      solution: 'x',
      category: 'pattern',
      tier: 'gold',
      score: 1,
    };
    const room = await api('POST', '/v1/rooms', {
      protocol: 'deliberation',
      config: {
        sessionId: 'generic_lessons',
        topic: body.topic,
        seats: SCRIPTED.map((p) => ({
          id: p.name,
          role: p.role,
          provider: 'any',
          model: 'any',
          score: p.score,
        })),
        lessons: [fake],
      },
    });
    const created = JSON.stringify(
      (await api('GET', `/v1/rooms/${room.room_id}/entries?fromSeq=0&limit=1`)).entries[0],
    );
    expect(created).toContain(taught.id);
    expect(created).not.toContain('made-up');
  }, 120_000);
});
