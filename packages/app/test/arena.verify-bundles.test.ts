import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchFile, readSpec, runTournament, TOURNAMENT_FILE } from '@db8/arena/cli/run.ts';
import { verifyArenaBundles } from '@db8/arena/rules/verify-bundles.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';

// The shared check (rules/verify-bundles.ts) that `db8 arena verify` and the web's tournament page
// both run: bundles in, verdict out. Here with the bundles of a local run held in memory.

const ROOT = join(import.meta.dirname, '../../..');
const IDS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];
let dir = '';
let tournament = '';
const bundles = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'db8-arena-bundles-'));
  const config = await readSpec(join(ROOT, 'examples/arena-sealed-bid.yaml'));
  await runTournament({ ...config, format: { kind: 'round-robin', games: 1 }, bootstrap: 10 }, arenaGames, {
    out: dir,
  });
  tournament = await readFile(join(dir, TOURNAMENT_FILE), 'utf8');
  for (const id of IDS) bundles.set(id, await readFile(join(dir, matchFile(id)), 'utf8'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = (matches: Map<string, string>, elsewhere?: Set<string>) =>
  verifyArenaBundles({ tournament, matches, ...(elsewhere ? { elsewhere } : {}) }, arenaGames).verdict;

describe('verifyArenaBundles', () => {
  it('passes the untouched bundles: every match checked, standings refolded', () => {
    const v = check(new Map(bundles));
    expect(v.problems).toEqual([]);
    expect(v).toMatchObject({ ok: true, matches: 6, checked: 6, elsewhere: [] });
    expect(v.standings?.rows).toHaveLength(4);
  });

  it('names the match whose bundle was altered', () => {
    const altered = new Map(bundles);
    const text = bundles.get('m3')!;
    const tampered = text.replace(/"amount":(\d+)/, (_, n) => `"amount":${Number(n) + 1}`);
    expect(tampered).not.toBe(text);
    altered.set('m3', tampered);
    const v = check(altered);
    expect(v.ok).toBe(false);
    expect(v.problems.map((p) => p.match)).toEqual(['m3']);
  });

  it('names a dropped match as missing, and one held elsewhere as elsewhere, not a failure', () => {
    const some = new Map(bundles);
    some.delete('m4');
    some.delete('m5');
    const v = check(some, new Set(['m5']));
    expect(v.problems).toEqual([{ match: 'm4', message: expect.stringContaining('missing') }]);
    expect(v.elsewhere).toEqual(['m5']);
    expect(v.checked).toBe(4);
  });

  it('names the tournament bundle when it was edited', () => {
    const v = verifyArenaBundles(
      {
        tournament: tournament.replace(/"score":(\d+)/, (_, n) => `"score":${Number(n) + 7}`),
        matches: bundles,
      },
      arenaGames,
    ).verdict;
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatchObject({
      match: null,
      message: expect.stringContaining('tournament bundle'),
    });
  });
});
