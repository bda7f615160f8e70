// `db8 arena run` / `db8 arena verify` for deliberation, run as the CLI runs them (the program's own
// commands, parsed from argv): the example round robin of four scripted proposers judged by the
// house judge seat (docs/arena.md, "Deliberation matches").

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchFile } from '@db8/arena/cli/run.ts';
import { judgeScore } from '@db8/deliberation/agent/strategies.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db8 } from './arena-cli.ts';

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
    // confidence 1 = 1000), since an entrant weighs nothing — so the scores are wins × 1000.
    expect(standings.rows.map((r: { score: number }) => r.score)).toEqual([6000, 4000, 2000, 0]);
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
    // m1 is thorough (proposer_1) against hedger (proposer_2): the judge (score 10, confidence 1)
    // votes for thorough, whose weight is 10 — 1000 in hundredths; hedger's is 0.
    const { result } = await matchLog(out, 'm1');
    expect(result.status).toBe('completed');
    expect(result.outcome.method).toBe('weighted');
    expect(result.outcome.winner).toBe('proposer_1');
    expect(result.outcome.voteBreakdown).toEqual({ proposer_1: 10, proposer_2: 0 });
    const t = (await readFile(join(out, 'tournament.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.type === 'entry' && r.entry.payload?.type === 'result')
      .map((r) => r.entry.payload)
      .find((a) => a.match === 'm1');
    expect(t.placements).toEqual([
      { entrant: 'thorough', place: 1, score: 1000 },
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
