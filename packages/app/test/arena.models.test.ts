// Model entrants in poker and sealed-bid matches of `db8 arena run`, and what they cost: played
// through provider profiles against the real local model server (packages/agents/test/model-server.ts:
// node:http on 127.0.0.1 speaking the OpenAI and Anthropic wire formats — a mock, never a real API).
// The cost figures are checked against the usage the mock itself reported, call by call.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ServerStep } from '@db8/agents/test/model-server.ts';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import type { CostReport } from '@db8/arena/cli/cost.ts';
import { COSTS_FILE, matchFile, readSpec, runTournament } from '@db8/arena/cli/run.ts';
import { readCouncilRequest } from '@db8/council/test/agent/council-responder.ts';
import { pokerScriptReply } from '@db8/poker/server/scripted.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { arenaGames, bidderValue } from '../src/arena-games.ts';
import { db8, mockProfiles, writeConfig } from './arena-cli.ts';

const PRICE = { inputPerMTok: 3, outputPerMTok: 15 };
const dirs: string[] = [];
let models: ModelServer;

beforeAll(async () => {
  models = await ModelServer.start();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await models?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A fresh directory whose db8.config.json names the mock's two wires (and prices `priced`). */
async function setup(extra: Record<string, unknown> = {}): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'db8-arena-models-'));
  dirs.push(d);
  await writeConfig(d, { profiles: mockProfiles(models), prices: { priced: PRICE }, ...extra });
  models.reset();
  return d;
}

/** The usage the mock reports, summed per model as it answers. */
function meterMock(answer: (rec: RecordedRequest) => unknown) {
  const seen: Record<string, { calls: number; input: number; output: number }> = {};
  let k = 0;
  models.respond((rec): ServerStep => {
    k++;
    const usage = { input: 40 + ((k * 7) % 23), output: 3 + (k % 5) };
    seen[rec.body.model] ??= { calls: 0, input: 0, output: 0 };
    const s = seen[rec.body.model]!;
    s.calls++;
    s.input += usage.input;
    s.output += usage.output;
    return { reply: answer(rec), usage };
  });
  return seen;
}

const usd = (s: { input: number; output: number }) =>
  (s.input * PRICE.inputPerMTok + s.output * PRICE.outputPerMTok) / 1e6;

async function spec(d: string, body: Record<string, unknown>): Promise<string> {
  const path = join(d, 'spec.json');
  await writeFile(path, JSON.stringify({ seed: 'models-1', bootstrap: 0, ...body }));
  return path;
}

const entries = async (out: string, match: string) =>
  (await readFile(join(out, matchFile(match)), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'entry')
    .map((r) => r.entry);

/** The tournament's scheduled matches (id, entrants in seat order, seed), from its log. */
async function schedule(out: string): Promise<{ id: string; entrants: string[]; seed: string }[]> {
  return (await readFile(join(out, 'tournament.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((x) => x.type === 'entry' && x.entry.payload?.type === 'schedule')
    .flatMap((x) => x.entry.payload.matches);
}

/** The betting moves of `entrant`'s seat in every match it played. */
async function movesOf(out: string, entrant: string): Promise<string[]> {
  const moves: string[] = [];
  for (const m of await schedule(out)) {
    const seat = `seat_${m.entrants.indexOf(entrant)}`;
    for (const e of await entries(out, m.id))
      if (e.actor === seat && ['check', 'call', 'fold', 'raiseTo'].includes(e.payload?.kind))
        moves.push(e.payload.kind);
  }
  return moves;
}

describe('db8 arena run: a model entrant in duplicate poker', () => {
  it('plays its seat through the poker model driver; verify passes; its cost is what the mock reported', async () => {
    const d = await setup();
    const seen = meterMock((rec) => pokerScriptReply(readCouncilRequest(rec).jsonSchema));
    const path = await spec(d, {
      name: 'model at the table',
      game: 'poker',
      gameConfig: { hands: 6 },
      format: { kind: 'duplicate-poker', deals: 1 },
      entrants: [
        { name: 'gpt', kind: 'model', provider: 'mock-openai', model: 'priced' },
        { name: 'tight', kind: 'scripted', strategy: 'tight' },
      ],
    });
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', path, '--out', out, '--json']);
    expect(r.error).toBe(null);
    const run = JSON.parse(r.out);
    expect(run.matches).toBe(2); // one deal, both seat orders
    // Every call was a poker_action and became the model seat's move in a match log.
    const asked = models.requests.map((q) => readCouncilRequest(q).schemaName);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set(['poker_action']));
    const moves = await movesOf(out, 'gpt');
    expect(moves.length).toBe(asked.length);
    // The cost: calls and tokens as the mock reported them, USD at the configured price.
    const costs = JSON.parse(await readFile(join(out, COSTS_FILE), 'utf8')) as CostReport;
    expect(costs).toEqual(run.costs);
    const t = costs.total.gpt!;
    expect([t.calls, t.failedCalls, t.inputTokens, t.outputTokens, t.fallbacks]).toEqual([
      seen.priced!.calls,
      0,
      seen.priced!.input,
      seen.priced!.output,
      0,
    ]);
    expect(t.costUsd).toBeCloseTo(usd(seen.priced!), 9);
    expect(Object.keys(costs.total)).toEqual(['gpt']); // scripted entrants cost nothing
    const perMatch = Object.values(costs.matches).map((m) => m.gpt!.calls);
    expect(perMatch.length).toBe(2);
    expect(perMatch.reduce((a, b) => a + b)).toBe(t.calls);
    const v = await db8(['arena', 'verify', out]);
    expect(v.error).toBe(null);
  }, 120_000);

  it('a model whose every call fails checks or folds each turn; the run completes and says so', async () => {
    const d = await setup({ retry: { maxRetries: 0 } });
    models.respond(() => ({ status: 401, body: { error: { message: 'no key' } } }));
    const path = await spec(d, {
      name: 'a model that is down',
      game: 'poker',
      gameConfig: { hands: 4 },
      format: { kind: 'duplicate-poker', deals: 1 },
      entrants: [
        { name: 'down', kind: 'model', provider: 'mock-openai', model: 'priced' },
        { name: 'station', kind: 'scripted', strategy: 'station' },
      ],
    });
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', path, '--out', out]);
    expect(r.error).toBe(null);
    const costs = JSON.parse(await readFile(join(out, COSTS_FILE), 'utf8')) as CostReport;
    const t = costs.total.down!;
    expect(t.calls).toBe(models.requests.length);
    expect(t.failedCalls).toBe(t.calls);
    expect(t.fallbacks).toBe(t.calls);
    expect([t.inputTokens, t.outputTokens, t.costUsd]).toEqual([0, 0, 0]);
    // Each fallback is a check or a fold in the log, never a bet.
    const fell = await movesOf(out, 'down');
    expect(fell.length).toBe(t.calls);
    expect(new Set(fell).size).toBeGreaterThan(0);
    for (const k of fell) expect(['check', 'fold']).toContain(k);
    // The printed table: the entrant's calls, failures and fallbacks.
    expect(r.out).toMatch(new RegExp(`^down +${t.calls} +${t.calls} +0 +0 +0\\.000000 +${t.calls}$`, 'm'));
    expect(r.out).toMatch(/a fallback is the safe legal move/);
    expect((await db8(['arena', 'verify', out])).error).toBe(null);
  }, 120_000);
});

describe('db8 arena run: a model entrant in a sealed-bid round robin', () => {
  it('bids through the sealed-bid model driver told its private value; verify passes; cost as reported', async () => {
    const d = await setup();
    // The model bids 60 % of the value it was told.
    const seen = meterMock((rec) => {
      const value = Number(/worth (\d+) to you/.exec(readCouncilRequest(rec).prompt)?.[1]);
      return { bid: Math.round(value * 0.6) };
    });
    const path = await spec(d, {
      name: 'model at the auction',
      game: 'sealed-bid',
      format: { kind: 'round-robin', games: 1 },
      entrants: [
        { name: 'claude', kind: 'model', provider: 'mock-anthropic', model: 'priced' },
        { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
        { name: 'shader', kind: 'scripted', strategy: 'shade' },
      ],
    });
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', path, '--out', out, '--json']);
    expect(r.error).toBe(null);
    const run = JSON.parse(r.out);
    expect(run.matches).toBe(3);
    expect(models.requests.every((q) => q.wire === 'anthropic')).toBe(true);
    expect(models.requests.length).toBe(2); // the model meets each of the two others once
    // Each prompt carries the bidder's value drawn from its match seed (what verify recomputes).
    const values = (await schedule(out))
      .filter((m) => m.entrants.includes('claude'))
      .map((m) => bidderValue(m.seed, m.entrants.indexOf('claude')))
      .sort((a, b) => a - b);
    const told = models.requests
      .map((q) => Number(/worth (\d+) to you/.exec(readCouncilRequest(q).prompt)?.[1]))
      .sort((a, b) => a - b);
    expect(told).toEqual(values);
    const t = (JSON.parse(await readFile(join(out, COSTS_FILE), 'utf8')) as CostReport).total.claude!;
    expect([t.calls, t.inputTokens, t.outputTokens, t.fallbacks]).toEqual([
      seen.priced!.calls,
      seen.priced!.input,
      seen.priced!.output,
      0,
    ]);
    expect(t.costUsd).toBeCloseTo(usd(seen.priced!), 9);
    expect((await db8(['arena', 'verify', out])).error).toBe(null);
  }, 120_000);

  it('an illegal bid (below the reserve) is no bid: the model scores 0, the run completes', async () => {
    const d = await setup();
    meterMock(() => ({ bid: 0 }));
    const path = await spec(d, {
      name: 'a model that bids nothing',
      game: 'sealed-bid',
      format: { kind: 'round-robin', games: 1 },
      entrants: [
        { name: 'zero', kind: 'model', provider: 'mock-openai', model: 'unpriced' },
        { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
      ],
    });
    const out = join(d, 'out');
    const r = await db8(['arena', 'run', path, '--out', out, '--json']);
    expect(r.error).toBe(null);
    const run = JSON.parse(r.out);
    const rows = run.standings.rows as { entrant: string; wins: number; score: number }[];
    expect(rows.map((x) => [x.entrant, x.wins])).toEqual([
      ['lowballer', 1],
      ['zero', 0],
    ]);
    expect(rows.find((x) => x.entrant === 'zero')!.score).toBe(0);
    const t = run.costs.total.zero;
    expect([t.calls, t.failedCalls, t.fallbacks, t.unpricedCalls, t.costUsd]).toEqual([1, 0, 1, 1, 0]);
    expect((await db8(['arena', 'verify', out])).error).toBe(null);
    // The progress line (stderr in the CLI) names the fallback.
    const lines: string[] = [];
    await runTournament(await readSpec(path), arenaGames, {
      out: join(d, 'again'),
      onMatch: (_done, _total, _m, line) => lines.push(line),
    });
    expect(lines).toEqual([
      expect.stringMatching(/ \(zero 1 fallback: failed call or illegal answer, safe move played\)$/),
    ]);
  }, 120_000);
});
