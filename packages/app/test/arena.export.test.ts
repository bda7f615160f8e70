import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSpec, runTournament } from '@db8/arena/cli/run.ts';
import { verifyArena } from '@db8/arena/cli/verify.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';

// `db8 arena run` writes every table as CSV and JSON beside standings.json; `db8 arena verify`
// rebuilds them from the refolded log and names a file that differs.

const ROOT = join(import.meta.dirname, '../../..');
const dirs: string[] = [];
const fresh = async () => {
  const d = await mkdtemp(join(tmpdir(), 'db8-arena-export-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('db8 arena run: tables/', () => {
  let out = '';
  beforeAll(async () => {
    out = await fresh();
    const config = await readSpec(join(ROOT, 'examples/arena-sealed-bid.yaml'));
    await runTournament({ ...config, format: { kind: 'round-robin', games: 1 }, bootstrap: 20 }, arenaGames, {
      out,
    });
  });

  it('writes standings, ratings, matrix and bankroll as CSV and JSON that agree with the standings', async () => {
    expect((await readdir(join(out, 'tables'))).sort()).toEqual(
      ['bankroll', 'matrix', 'ratings', 'standings'].flatMap((n) => [`${n}.csv`, `${n}.json`]),
    );
    const standings = JSON.parse(await readFile(join(out, 'standings.json'), 'utf8')) as {
      rows: Array<{ entrant: string; wins: number; rating: number }>;
    };
    const csv = (await readFile(join(out, 'tables/ratings.csv'), 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('entrant,rating,ci_low,ci_high,games,status');
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 2))).toEqual(
      standings.rows.map((r) => [r.entrant, r.rating.toFixed(0)]),
    );
    // Four entrants, one game per pair: 12 ordered pairs, and each row's wins sum to the standings'.
    const matrix = JSON.parse(await readFile(join(out, 'tables/matrix.json'), 'utf8')) as Array<{
      entrant: string;
      wins: number;
      games: number;
    }>;
    expect(matrix).toHaveLength(12);
    for (const r of standings.rows)
      expect(matrix.filter((c) => c.entrant === r.entrant).reduce((s, c) => s + c.wins, 0)).toBe(r.wins);
    expect((await verifyArena(out, arenaGames)).problems).toEqual([]);
  });

  it('verify names an edited table file, and accepts a run without tables/', async () => {
    const d = await fresh();
    await cp(out, d, { recursive: true });
    const file = join(d, 'tables/matrix.csv');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/,1,0,0,1,1\r\n/, ',0,0,1,1,0\r\n'));
    const v = await verifyArena(d, arenaGames);
    expect(v.problems).toEqual([{ match: null, message: expect.stringContaining('tables/matrix.csv') }]);
    await rm(join(d, 'tables'), { recursive: true });
    expect((await verifyArena(d, arenaGames)).problems).toEqual([]);
  });
});
