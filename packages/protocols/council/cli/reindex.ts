import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACT_PATHS } from '../rules/index.ts';
import { artifactHashes } from './artifacts.ts';
import { RUN_ID_PATTERN, relToHome, runDir, runsDir } from './files.ts';
import { CouncilIndex } from './index-db.ts';
import { replayRun } from './replay.ts';

/**
 * The index rebuilt from the JSON artifacts, the source of truth (seed 001, Decision 5): every
 * run directory is replayed from its files alone, and each completed run that replays cleanly is
 * indexed as `db8 council` indexed it. Runs that were aborted, are still being written, or fail
 * replay are left out and named.
 */

export interface ReindexReport {
  indexed: string[];
  skipped: { runId: string; reason: string }[];
}

async function runIds(home: string): Promise<string[]> {
  const entries = await readdir(runsDir(home), { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  return entries
    .filter((e) => e.isDirectory() && RUN_ID_PATTERN.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** Index every run under the home into `index` (which the caller holds open), then mark it rebuilt. */
export async function reindexRuns(home: string, index: CouncilIndex): Promise<ReindexReport> {
  const report: ReindexReport = { indexed: [], skipped: [] };
  for (const runId of await runIds(home)) {
    const rep = await replayRun(home, runId, null);
    if (!rep.ok || !rep.state?.packet || !rep.stateSha256) {
      report.skipped.push({ runId, reason: rep.problems[0] ?? 'no final packet' });
      continue;
    }
    const dir = runDir(home, runId);
    await index.putRun({
      state: rep.state,
      stateSha256: rep.stateSha256,
      runDir: relToHome(home, dir),
      packetPath: relToHome(home, join(dir, ARTIFACT_PATHS.packet)),
      artifacts: artifactHashes(rep.state),
    });
    report.indexed.push(runId);
  }
  await index.markRebuilt();
  return report;
}

/**
 * Open the index for use, rebuilding it from the artifacts first when it is new (deleted, never
 * made, recreated after it broke) or a rebuild was interrupted; `fresh` drops it and rebuilds.
 */
export async function openIndex(
  home: string,
  opts: { fresh?: boolean } = {},
): Promise<{ index: CouncilIndex; rebuilt: ReindexReport | null }> {
  const index = await CouncilIndex.open(home, opts);
  try {
    const rebuilt = (await index.isRebuilt()) ? null : await reindexRuns(home, index);
    return { index, rebuilt };
  } catch (e) {
    await index.close().catch(() => {});
    throw e;
  }
}
