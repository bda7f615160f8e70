import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loaderOf } from './sandbox.ts';

/**
 * A code version's quality, measured by FTA (Fast TypeScript Analyzer, the `fta-cli` package: a
 * maintained Rust analyser built on the swc parser) — the seed's `quality_score` and `metrics`:
 * cyclomatic complexity, the Halstead measures and FTA's score, which combines them with the line
 * count (lower is better; FTA calls a file "OK" under 50, "Needs improvement" over 60).
 * `qualityScore` is that score mapped onto 0–1: 1 − score/100, clamped. The analyser reads the
 * code, never runs it. Null when it cannot read the version (another language, a syntax error).
 */

export interface CodeQuality {
  qualityScore: number;
  metrics: Record<string, number>;
}

interface FtaFile {
  cyclo: number;
  halstead: { volume: number; difficulty: number; effort: number; bugs: number; vocabulary_size: number };
  line_count: number;
  fta_score: number;
}

const require = createRequire(import.meta.url);
const ANALYSE_TIMEOUT_MS = 20_000;

function runFta(dir: string): Promise<string> {
  // The package's own entry picks the binary for this platform; `-e 0` keeps short files.
  const entry = require.resolve('fta-cli');
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [entry, dir, '--json', '--exclude-under', '0'],
      { timeout: ANALYSE_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
}

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;

export async function analyseCode(source: string, language: string): Promise<CodeQuality | null> {
  const loader = loaderOf(language);
  if (!loader) return null;
  const dir = await mkdtemp(join(tmpdir(), 'db8-quality-'));
  try {
    await writeFile(join(dir, `solution.${loader}`), source);
    const files = JSON.parse(await runFta(dir)) as FtaFile[];
    const f = files[0];
    if (!f || !Number.isFinite(f.fta_score)) return null;
    return {
      qualityScore: round(Math.min(1, Math.max(0, 1 - f.fta_score / 100))),
      metrics: {
        cyclomatic: f.cyclo,
        halsteadVolume: round(f.halstead.volume),
        halsteadDifficulty: round(f.halstead.difficulty),
        halsteadEffort: round(f.halstead.effort),
        halsteadBugs: round(f.halstead.bugs),
        ftaScore: round(f.fta_score),
      },
    };
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
