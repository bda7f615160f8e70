// `db8 arena run` / `db8 arena verify` for debate, run as the CLI runs them (the program's own
// commands, parsed from argv): the example round robin of four scripted debaters, then a round
// robin with two model entrants played through provider profiles against the real local model
// server (packages/agents/test/model-server.ts: node:http on 127.0.0.1 speaking the OpenAI and
// Anthropic wire formats — a mock, never a real API).

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ServerStep } from '@db8/agents/test/model-server.ts';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { matchFile } from '@db8/arena/cli/run.ts';
import { readCouncilRequest } from '@db8/council/test/agent/council-responder.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db8, mockProfiles, writeConfig } from './arena-cli.ts';

const ROOT = join(import.meta.dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/arena-debate-round-robin.yaml');
const dirs: string[] = [];
const fresh = async () => {
  const d = await mkdtemp(join(tmpdir(), 'db8-arena-debate-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  vi.restoreAllMocks();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function copyRun(from: string): Promise<string> {
  const to = await fresh();
  await cp(from, to, { recursive: true });
  return to;
}

describe('db8 arena run examples/arena-debate-round-robin.yaml (four scripted debaters)', () => {
  let out = '';
  let printed = '';
  beforeAll(async () => {
    out = await fresh();
    const r = await db8(['arena', 'run', EXAMPLE, '--out', out, '--json']);
    expect(r.error).toBe(null);
    printed = r.out;
  }, 120_000);

  it('plays every pairing and places the strategies by strength', async () => {
    const run = JSON.parse(printed);
    expect(run.matches).toBe(12); // 6 pairs × 2 games (both seat orders)
    const standings = JSON.parse(await readFile(join(out, 'standings.json'), 'utf8'));
    expect(standings).toEqual(run.standings);
    // evidence (verified and calibrated) > hedge (verified) > sloppy (half refuted) > bluff (refuted).
    expect(standings.rows.map((r: { entrant: string }) => r.entrant)).toEqual([
      'evidence',
      'hedger',
      'sloppy',
      'bluffer',
    ]);
    expect(standings.rows.map((r: { wins: number }) => r.wins)).toEqual([6, 4, 2, 0]);
  });

  it('each match score is the debate’s own total, read from the match log', async () => {
    const text = await readFile(join(out, matchFile('m1')), 'utf8');
    const close = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((r) => r.type === 'entry' && r.entry.kind === 'close');
    const placements = close.entry.payload.result.placements as {
      seat: string;
      total: number;
      place: number;
    }[];
    const t = JSON.parse(
      await readFile(join(out, 'tournament.jsonl'), 'utf8').then((s) => s.split('\n')[0]!),
    );
    expect(t.protocol).toBe('arena');
    // m1 is evidence (anon_1) against hedger (anon_2): 95 rubric + 4.8 calibration against 95 + 0.
    expect(placements.map((p) => [p.seat, p.total, p.place])).toEqual([
      ['anon_1', 99.8, 1],
      ['anon_2', 95, 2],
    ]);
  });

  it('db8 arena verify passes on the output', async () => {
    const r = await db8(['arena', 'verify', out]);
    expect(r.error).toBe(null);
    expect(r.out).toMatch(/^ok .*12 matches verified/);
  });

  it('db8 arena verify fails naming the match whose bundle was altered', async () => {
    const d = await copyRun(out);
    const file = join(d, matchFile('m7'));
    const text = await readFile(file, 'utf8');
    // Raise one claim's confidence in the log: the entry no longer hashes to its leaf.
    const tampered = text.replace(/"confidence":(\d+)/, (_, n) => `"confidence":${Number(n) - 1}`);
    expect(tampered).not.toBe(text);
    await writeFile(file, tampered);
    const r = await db8(['arena', 'verify', d]);
    expect(r.error?.exitCode).toBe(3);
    expect(r.error?.message).toMatch(/^db8: match m7: /);
  });

  it('db8 arena verify fails naming the match whose bundle was removed', async () => {
    const d = await copyRun(out);
    await rm(join(d, matchFile('m11')));
    const r = await db8(['arena', 'verify', d]);
    expect(r.error?.exitCode).toBe(3);
    expect(r.error?.message).toMatch(/^db8: match m11: bundle .* is missing/);
  });
});

describe('db8 arena run with model entrants (local mock model server)', () => {
  let models: ModelServer;
  beforeAll(async () => {
    models = await ModelServer.start();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await models?.close();
  });

  /** A submission as a model would write it: the OpenAI-wire model cites its listed sources, the Anthropic-wire one cites none. */
  function reply(rec: RecordedRequest): ServerStep {
    const r = readCouncilRequest(rec);
    if (r.schemaName !== 'debate_submission')
      return { status: 400, body: { error: { message: 'unexpected' } } };
    const seat = /You are (anon_\d+)/.exec(r.prompt)?.[1] ?? '?';
    const url = (i: number) => `https://example.org/mock/${rec.wire}/${seat}/${i}`;
    const cites = rec.wire === 'openai';
    return {
      reply: {
        content: `${seat} (mock ${rec.wire} model) argues the motion.`,
        claims: [1, 2].map((i) => ({
          id: `c${i}`,
          text: `mock claim ${i} of ${seat}`,
          support: [
            cites ? { kind: 'citation', ref: url(i) } : { kind: 'logic', ref: 'it stands to reason' },
          ],
          confidence: 100,
        })),
        citations: [1, 2].map((i) => ({ url: url(i), title: `source ${i}` })),
      },
    };
  }

  it('plays them through provider profiles, and their placements follow the same rules', async () => {
    const d = await fresh();
    await writeConfig(d, { profiles: mockProfiles(models) });
    models.respond(reply);
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'models and scripts',
        game: 'debate',
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'evidence', kind: 'scripted', strategy: 'evidence' },
          { name: 'citer', kind: 'model', provider: 'mock-openai', model: 'mock-citer' },
          { name: 'reasoner', kind: 'model', provider: 'mock-anthropic', model: 'mock-reasoner' },
          { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'models-1',
        bootstrap: 0,
      }),
    );
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', spec, '--out', out, '--json']);
    expect(r.error).toBe(null);
    // Each model entrant plays 3 matches of 2 rounds (argument and closing): 6 calls on each wire.
    const asked = models.requests.map((q) => [q.wire, readCouncilRequest(q).schemaName, q.body.model]);
    expect(asked.filter(([w]) => w === 'openai')).toEqual(
      Array(6).fill(['openai', 'debate_submission', 'mock-citer']),
    );
    expect(asked.filter(([w]) => w === 'anthropic')).toEqual(
      Array(6).fill(['anthropic', 'debate_submission', 'mock-reasoner']),
    );
    // citer: verified and perfectly calibrated (100) > evidence (99.8) > reasoner: nothing cited,
    // nothing refuted (60) > bluffer: refuted (40).
    const { standings, costs } = JSON.parse(r.out);
    // Their cost: every call metered under the entrant's name (debate's cost figures).
    expect([costs.total.citer.calls, costs.total.reasoner.calls]).toEqual([6, 6]);
    expect(Object.keys(costs.total)).toEqual(['citer', 'reasoner']);
    expect(standings.rows.map((x: { entrant: string }) => x.entrant)).toEqual([
      'citer',
      'evidence',
      'reasoner',
      'bluffer',
    ]);
    const v = await db8(['arena', 'verify', out]);
    expect(v.error).toBe(null);
  }, 120_000);

  it('a model whose calls fail forfeits its rounds; the run goes on', async () => {
    const d = await fresh();
    await writeConfig(d, {
      profiles: { down: { kind: 'openai', baseUrl: models.openaiBaseUrl } },
      retry: { maxRetries: 0 },
    });
    models.reset();
    models.respond(() => ({ status: 401, body: { error: { message: 'no key' } } }));
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'a model that is down',
        game: 'debate',
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'down', kind: 'model', provider: 'down', model: 'm' },
          { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'down-1',
        bootstrap: 0,
      }),
    );
    const r = await db8(['arena', 'run', spec, '--out', join(d, 'out'), '--json']);
    expect(r.error).toBe(null);
    expect(models.requests.length).toBe(2); // asked once per round, never retried on a 401
    const rows = JSON.parse(r.out).standings.rows as { entrant: string; wins: number }[];
    const down = JSON.parse(r.out).costs.total.down;
    expect([down.calls, down.failedCalls, down.fallbacks]).toEqual([2, 2, 2]);
    expect(rows.map((x) => [x.entrant, x.wins])).toEqual([
      ['bluffer', 1],
      ['down', 0],
    ]);
  }, 120_000);

  it('people and outside agents are refused with the reason', async () => {
    const d = await fresh();
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'x',
        game: 'debate',
        format: { kind: 'round-robin' },
        entrants: [
          { name: 'evidence', kind: 'scripted', strategy: 'evidence' },
          { name: 'ada', kind: 'person' },
        ],
        seed: 's',
      }),
    );
    const r = await db8(['arena', 'run', spec, '--out', join(d, 'out')]);
    expect(r.error?.exitCode).toBe(2);
    // Why (ada plays her own seat through a server's API) and where to go instead (a server).
    expect(r.error?.message).toMatch(
      /entrant ada is a person, who plays its own seat through a server's API/,
    );
    expect(r.error?.message).toMatch(
      /make the tournament on a server instead \(db8 room create --protocol arena/,
    );
  });

  it('an unknown provider profile is refused, naming it', async () => {
    const d = await fresh();
    vi.stubEnv('DB8_CONFIG', '');
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'x',
        game: 'debate',
        format: { kind: 'round-robin' },
        entrants: [
          { name: 'evidence', kind: 'scripted', strategy: 'evidence' },
          { name: 'ghost', kind: 'model', provider: 'nosuch', model: 'm' },
        ],
        seed: 's',
      }),
    );
    const r = await db8(['arena', 'run', spec, '--out', join(d, 'out')]);
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toMatch(/unknown provider profile "nosuch"/);
  });
});
