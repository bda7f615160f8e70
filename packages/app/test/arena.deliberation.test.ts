// `db8 arena run` / `db8 arena verify` for deliberation, run as the CLI runs them (the program's own
// commands, parsed from argv): the example round robin of four scripted proposers judged by the
// house judge seat (docs/arena.md, "Deliberation matches").

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ServerStep } from '@db8/agents/test/model-server.ts';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { matchFile } from '@db8/arena/cli/run.ts';
import { readCouncilRequest } from '@db8/council/test/agent/council-responder.ts';
import { judgeScore } from '@db8/deliberation/agent/strategies.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db8, mockProfiles, writeConfig } from './arena-cli.ts';

const ROOT = join(import.meta.dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/arena-deliberation-round-robin.yaml');
const POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];
const dirs: string[] = [];
const fresh = async () => {
  const d = await mkdtemp(join(tmpdir(), 'db8-arena-deliberation-'));
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

interface Turn {
  seat: string;
  action: { type: string; content?: string; confidence?: number; ranking?: string[] };
}

/**
 * A match bundle's result and its turns: the proposals are sealed to their audience while the
 * session runs and revealed by the entry that ends it, so each action entry's payload is its own or
 * the one a later entry reveals.
 */
async function matchLog(out: string, id: string) {
  const entries = (await readFile(join(out, matchFile(id)), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'entry')
    .map((r) => r.entry);
  const revealed = new Map<number, Turn['action']>();
  for (const e of entries) for (const r of e.reveals ?? []) revealed.set(r.seq, r.payload);
  const close = entries.find((e) => e.kind === 'close');
  const turns: Turn[] = entries
    .filter((e) => e.kind === 'action')
    .map((e) => ({ seat: e.actor, action: e.payload ?? revealed.get(e.seq) }));
  return { result: close.payload.result, turns };
}

describe('db8 arena run examples/arena-deliberation-round-robin.yaml (four scripted proposers)', () => {
  let out = '';
  let printed = '';
  beforeAll(async () => {
    out = await fresh();
    const r = await db8(['arena', 'run', EXAMPLE, '--out', out, '--json']);
    expect(r.error).toBe(null);
    printed = r.out;
  }, 120_000);

  it("places the strategies in the order the house judge's rule predicts", async () => {
    const run = JSON.parse(printed);
    expect(run.matches).toBe(12); // 6 pairs × 2 games (both seat orders)
    const standings = JSON.parse(await readFile(join(out, 'standings.json'), 'utf8'));
    expect(standings).toEqual(run.standings);
    // The judge's score, coverage − |confidence − coverage| / 2 (docs/arena.md): thorough 0.95 >
    // hedge 0.75 > partial 0.40 > bluff −0.475, and a better score wins every pairing.
    expect(standings.rows.map((r: { entrant: string }) => r.entrant)).toEqual([
      'thorough',
      'hedger',
      'partial',
      'bluffer',
    ]);
    expect(standings.rows.map((r: { wins: number }) => r.wins)).toEqual([6, 4, 2, 0]);
    expect(standings.rows.map((r: { losses: number }) => r.losses)).toEqual([0, 2, 4, 6]);
    // A match's score is the winner's vote weight in hundredths: the judge's alone (seat score 10 ×
    // confidence 0.5 = 5, 500 in hundredths), since an entrant weighs nothing — so the scores are
    // wins × 500.
    expect(standings.rows.map((r: { score: number }) => r.score)).toEqual([3000, 2000, 1000, 0]);
  });

  it('each proposal scores what the docs table says, and only the house judge votes', async () => {
    const expected: Record<string, number> = { thorough: 0.95, hedge: 0.75, partial: 0.4, bluff: -0.475 };
    const seen: Record<string, number> = {};
    for (let m = 1; m <= 12; m++) {
      const { turns } = await matchLog(out, `m${m}`);
      for (const t of turns.filter((x) => x.action.type === 'propose')) {
        const strategy = /strategy (\w+)/.exec(t.action.content ?? '')![1]!;
        seen[strategy] = judgeScore(POINTS, t.action.content!, t.action.confidence!);
      }
      // Convergence is the house judge's alone: no entrant's ballot is in any match log.
      const voters = turns.filter((x) => x.action.type === 'converge').map((x) => x.seat);
      expect([m, voters]).toEqual([m, ['house_judge']]);
    }
    for (const [k, v] of Object.entries(expected)) expect([k, seen[k]]).toEqual([k, expect.closeTo(v, 9)]);
  });

  it("each match score is the protocol's vote breakdown, read from the match log", async () => {
    // m1 is thorough (proposer_1) against hedger (proposer_2): the judge (score 10, confidence 0.5)
    // votes for thorough, whose weight is 5 — 500 in hundredths; hedger's is 0. One house ballot is
    // not a consensus of the seats (minConsensus 1 is above its 0.8), so the session reaches none.
    const { result } = await matchLog(out, 'm1');
    expect(result.status).toBe('completed');
    expect(result.outcome.method).toBe('weighted');
    expect(result.outcome.winner).toBe('proposer_1');
    expect(result.outcome.voteBreakdown).toEqual({ proposer_1: 5, proposer_2: 0 });
    expect([result.finalConsensus, result.outcome.reachedConsensus]).toEqual([0.8, false]);
    const t = (await readFile(join(out, 'tournament.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.type === 'entry' && r.entry.payload?.type === 'result')
      .map((r) => r.entry.payload)
      .find((a) => a.match === 'm1');
    expect(t.placements).toEqual([
      { entrant: 'thorough', place: 1, score: 500 },
      { entrant: 'hedger', place: 2, score: 0 },
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
    // Lower one proposal's confidence in the log: the entry no longer hashes to its leaf.
    const tampered = text.replace(/"confidence":0\.(\d+)/, (_, n) => `"confidence":0.${n}1`);
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

describe('db8 arena run: a Swiss deliberation tournament', () => {
  it('pairs by points and ends in the order the house rule predicts, and verifies', async () => {
    const d = await fresh();
    const spec = join(d, 'swiss.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'deliberation swiss',
        game: 'deliberation',
        format: { kind: 'swiss', rounds: 3 },
        entrants: [
          { name: 'thorough', kind: 'scripted', strategy: 'thorough' },
          { name: 'hedger', kind: 'scripted', strategy: 'hedge' },
          { name: 'partial', kind: 'scripted', strategy: 'partial' },
          { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'deliberation-swiss-1',
        bootstrap: 0,
      }),
    );
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', spec, '--out', out, '--json']);
    expect(r.error).toBe(null);
    const run = JSON.parse(r.out);
    // Round 1 in listed order: thorough–hedger, partial–bluffer (thorough, partial win). Round 2 by
    // points: thorough–partial, hedger–bluffer. Round 3: thorough (2) meets the best it has not met,
    // bluffer; hedger–partial. Every match goes to the better strategy: 3, 2, 1, 0 wins.
    expect(run.matches).toBe(6);
    expect(run.standings.rows.map((x: { entrant: string; wins: number }) => [x.entrant, x.wins])).toEqual([
      ['thorough', 3],
      ['hedger', 2],
      ['partial', 1],
      ['bluffer', 0],
    ]);
    const v = await db8(['arena', 'verify', out]);
    expect(v.error).toBe(null);
    expect(v.out).toMatch(/^ok .*6 matches verified/);
  });
});

describe('db8 arena run: model proposers (local mock model server)', () => {
  let models: ModelServer;
  beforeAll(async () => {
    models = await ModelServer.start();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await models?.close();
  });

  /**
   * A proposal as a model would write it, from what its prompt shows (the checklist is the proposal
   * phase's prompt): the OpenAI-wire model covers every point and is sure of it, the Anthropic-wire
   * one covers none and says so (confidence 0).
   */
  function reply(rec: RecordedRequest): ServerStep {
    const r = readCouncilRequest(rec);
    if (r.schemaName === 'deliberation_plan')
      return {
        reply: {
          tasks: [{ id: 'own', description: 'my proposal', assignee: null, dependsOn: [], priority: 1 }],
        },
      };
    if (r.schemaName !== 'deliberation_propose')
      return { status: 400, body: { error: { message: 'unexpected' } } };
    const points = r.prompt
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2));
    const covers = rec.wire === 'openai';
    return {
      reply: {
        content: covers ? `A plan that handles ${points.join(', ')}.` : 'A plan, in general terms.',
        taskIds: [],
        confidence: covers ? 1 : 0,
        code: null,
      },
    };
  }

  it('plays them through provider profiles, and the house judge places them by the same rule', async () => {
    const d = await fresh();
    await writeConfig(d, { profiles: mockProfiles(models) });
    models.respond(reply);
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'models and scripts',
        game: 'deliberation',
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'thorough', kind: 'scripted', strategy: 'thorough' },
          { name: 'coverer', kind: 'model', provider: 'mock-openai', model: 'mock-coverer' },
          { name: 'vaguer', kind: 'model', provider: 'mock-anthropic', model: 'mock-vaguer' },
          { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'models-1',
        bootstrap: 0,
      }),
    );
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', spec, '--out', out, '--json']);
    expect(r.error).toBe(null);
    // Each model entrant plays 3 matches, asked to plan (dpde: its own part) and to propose in each.
    const asked = models.requests.map((q) => [q.wire, readCouncilRequest(q).schemaName, q.body.model]);
    // (Matches interleave, so the calls are compared as a multiset.)
    const each = (wire: string, model: string) => [
      ...Array(3).fill([wire, 'deliberation_plan', model]),
      ...Array(3).fill([wire, 'deliberation_propose', model]),
    ];
    const sorted = (xs: unknown[][]) => xs.map((x) => x.join(' ')).sort();
    expect(sorted(asked.filter(([w]) => w === 'openai'))).toEqual(sorted(each('openai', 'mock-coverer')));
    expect(sorted(asked.filter(([w]) => w === 'anthropic'))).toEqual(
      sorted(each('anthropic', 'mock-vaguer')),
    );
    // coverer: every point, sure of it (1 − 0 = 1) > thorough (0.95) > vaguer: no point, and says
    // so (0 − 0 = 0) > bluffer (−0.475).
    const { standings, costs } = JSON.parse(r.out);
    expect([costs.total.coverer.calls, costs.total.vaguer.calls]).toEqual([6, 6]);
    expect(standings.rows.map((x: { entrant: string; wins: number }) => [x.entrant, x.wins])).toEqual([
      ['coverer', 3],
      ['thorough', 2],
      ['vaguer', 1],
      ['bluffer', 0],
    ]);
    const v = await db8(['arena', 'verify', out]);
    expect(v.error).toBe(null);
  }, 120_000);

  it('a model whose calls fail sends recorded failed turns and loses; the run goes on', async () => {
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
        game: 'deliberation',
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
    // Asked to plan and to propose, never retried on a 401; both turns are recorded failures.
    expect(models.requests.length).toBe(2);
    const down = JSON.parse(r.out).costs.total.down;
    expect([down.calls, down.failedCalls, down.fallbacks]).toEqual([2, 2, 2]);
    // Its proposal failed, so only bluffer's is a candidate: the judge votes for it.
    expect(
      JSON.parse(r.out).standings.rows.map((x: { entrant: string; wins: number }) => [x.entrant, x.wins]),
    ).toEqual([
      ['bluffer', 1],
      ['down', 0],
    ]);
  }, 120_000);
});

describe('db8 arena run: who plays a deliberation match', () => {
  it('refuses a person or outside agent, who plays its own seat on a server: it says to make it there', async () => {
    const d = await fresh();
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'x',
        game: 'deliberation',
        format: { kind: 'round-robin' },
        entrants: [
          { name: 'thorough', kind: 'scripted', strategy: 'thorough' },
          { name: 'ada', kind: 'person' },
        ],
        seed: 's',
      }),
    );
    const r = await db8(['arena', 'run', spec, '--out', join(d, 'out')]);
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toMatch(
      /entrant ada is a person.*db8 arena run plays every seat itself.*make the tournament on a server instead/,
    );
  });
});
