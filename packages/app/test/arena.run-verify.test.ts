import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchFile, readSpec, runTournament } from '@db8/arena/cli/run.ts';
import { verifyArena as verifyWith } from '@db8/arena/cli/verify.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';

const verifyArena = (dir: string) => verifyWith(dir, arenaGames);

const ROOT = join(import.meta.dirname, '../../..');
const dirs: string[] = [];
const fresh = async () => {
  const d = await mkdtemp(join(tmpdir(), 'db8-arena-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A copy of a run's output to tamper with. */
async function copyRun(from: string): Promise<string> {
  const to = await fresh();
  const { cp } = await import('node:fs/promises');
  await cp(from, to, { recursive: true });
  return to;
}

describe('db8 arena run / verify (sealed-bid round robin, the example spec)', () => {
  let out = '';
  beforeAll(async () => {
    out = await fresh();
    const config = await readSpec(join(ROOT, 'examples/arena-sealed-bid.yaml'));
    const r = await runTournament(
      { ...config, format: { kind: 'round-robin', games: 1 }, bootstrap: 30 },
      arenaGames,
      { out },
    );
    expect(r.matches).toBe(6);
  });

  it('verifies an untouched run', async () => {
    const v = await verifyArena(out);
    expect(v.problems).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.matches).toBe(6);
    expect(v.standings?.rows).toHaveLength(4);
  });

  it('names the match whose bundle was altered', async () => {
    const d = await copyRun(out);
    const file = join(d, matchFile('m2'));
    const text = await readFile(file, 'utf8');
    // Raise one bid in the log: the entry no longer hashes to its leaf.
    const tampered = text.replace(/"amount":(\d+)/, (_, n) => `"amount":${Number(n) + 1}`);
    expect(tampered).not.toBe(text);
    await writeFile(file, tampered);
    const v = await verifyArena(d);
    expect(v.ok).toBe(false);
    expect(v.problems.map((p) => p.match)).toEqual(['m2']);
  });

  it('names a removed match bundle', async () => {
    const d = await copyRun(out);
    await rm(join(d, matchFile('m5')));
    const v = await verifyArena(d);
    expect(v.problems).toEqual([{ match: 'm5', message: expect.stringContaining('missing') }]);
  });

  it('names a match whose bundle is another match’s (a swapped result)', async () => {
    const d = await copyRun(out);
    await writeFile(join(d, matchFile('m1')), await readFile(join(d, matchFile('m3')), 'utf8'));
    const v = await verifyArena(d);
    expect(v.problems.map((p) => p.match)).toContain('m1');
  });

  it('fails when the standings file was edited', async () => {
    const d = await copyRun(out);
    const s = JSON.parse(await readFile(join(d, 'standings.json'), 'utf8'));
    s.rows[0].rating += 1;
    await writeFile(join(d, 'standings.json'), JSON.stringify(s));
    const v = await verifyArena(d);
    expect(v.problems).toEqual([{ match: null, message: expect.stringContaining('standings.json') }]);
  });

  it('fails when the tournament log was edited', async () => {
    const d = await copyRun(out);
    const file = join(d, 'tournament.jsonl');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(/"score":(\d+)/, (_, n) => `"score":${Number(n) + 7}`),
    );
    const v = await verifyArena(d);
    expect(v.ok).toBe(false);
    expect(v.problems[0]!.match).toBe(null);
  });
});

describe('duplicate poker, the example spec', () => {
  it('runs, verifies, and every set plays one seed with the seats swapped', async () => {
    const config = await readSpec(join(ROOT, 'examples/arena-duplicate-poker.yaml'));
    expect(config.format).toEqual({ kind: 'duplicate-poker', deals: 6 });
    const out = await fresh();
    await runTournament(
      { ...config, format: { kind: 'duplicate-poker', deals: 1 }, gameConfig: { hands: 10 }, bootstrap: 0 },
      arenaGames,
      { out },
    );
    const v = await verifyArena(out);
    expect(v.problems).toEqual([]);
    const rows = v.standings!.rows;
    // Two entrants, chips summed over the two rotations: what one wins the other loses.
    expect(rows[0]!.score + rows[1]!.score).toBe(0);
  });

  it('bb/100: the short run predicts the hands the long run needs, and the long run is clear of zero', async () => {
    const short = await readSpec(join(ROOT, 'examples/arena-duplicate-poker.yaml'));
    const long = await readSpec(join(ROOT, 'examples/arena-duplicate-poker-long.yaml'));
    const play = async (config: typeof short) => {
      const out = await fresh();
      await runTournament({ ...config, bootstrap: 0 }, arenaGames, { out });
      return { out, poker: (await verifyArena(out)).standings!.poker! };
    };
    const a = await play(short);
    const b = await play(long);
    const tight = (p: typeof a.poker) => p.rows.find((r) => r.entrant === 'tight')!;
    // Six sets: an edge for tight, but an interval that straddles zero, and a prediction.
    expect(tight(a.poker).ci![0]).toBeLessThan(0);
    const predicted = tight(a.poker).handsToExcludeZero!;
    expect(predicted).toBeGreaterThan(tight(a.poker).hands);
    // Thirty sets play at least the predicted hands, and the interval excludes zero.
    expect(tight(b.poker).hands).toBeGreaterThanOrEqual(predicted);
    expect(tight(b.poker).ci![0]).toBeGreaterThan(0);
    // Zero-sum heads-up: random's rate mirrors tight's.
    expect(b.poker.rows.find((r) => r.entrant === 'random')!.bb100).toBeCloseTo(-tight(b.poker).bb100, 9);
  });

  it('names a match whose reported hand count is not its log’s', async () => {
    const config = await readSpec(join(ROOT, 'examples/arena-duplicate-poker.yaml'));
    const out = await fresh();
    // A runner that overstates one match's hands (and so the rates): its logs are honest, its report is not.
    const lying = {
      ...arenaGames,
      poker: { ...arenaGames.poker!, hands: (r: unknown) => arenaGames.poker!.hands!(r) + 1 },
    };
    await runTournament({ ...config, format: { kind: 'duplicate-poker', deals: 1 }, bootstrap: 0 }, lying, {
      out,
    });
    const v = await verifyArena(out);
    expect(v.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('hand count'),
      expect.stringContaining('hand count'),
    ]);
    expect(v.problems.map((p) => p.match)).toEqual(['s1-r1', 's1-r2']);
  });

  it('refuses a spec it cannot run, saying why', async () => {
    const d = await fresh();
    const spec = join(d, 'spec.json');
    await writeFile(
      spec,
      JSON.stringify({
        name: 'x',
        game: 'deliberation',
        format: { kind: 'round-robin' },
        entrants: [
          { name: 'a', kind: 'scripted', strategy: 'x' },
          { name: 'b', kind: 'scripted', strategy: 'x' },
        ],
        seed: 's',
      }),
    );
    // Every game of the arena's rules is played now; a runner given fewer games says which it plays.
    const { deliberation: _, ...fewer } = arenaGames;
    await expect(runTournament(await readSpec(spec), fewer, { out: d })).rejects.toThrow(
      /plays poker, sealed-bid and debate locally; deliberation matches need a server/,
    );
    await writeFile(spec, '{ not json');
    await expect(readSpec(spec)).rejects.toThrow(/not JSON/);
  });
});
