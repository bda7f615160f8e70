import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCAL_KEY_FILE } from '@db8/cli/kit-run';
import {
  formatFailure,
  hashCanonical,
  journalEntries,
  parseJournalText,
  refoldLog,
  verifyBundleText,
} from '@db8/core';
import {
  ARTIFACT_PATHS,
  type CouncilState,
  checkTransitionLog,
  council,
  FinalPacketSchema,
  renderPacketMarkdown,
  stageArtifacts,
  transitionsArtifact,
} from '../rules/index.ts';
import { artifactHashes, DecisionRecordSchema } from './artifacts.ts';
import { readJson, runDir } from './files.ts';
import { type CouncilIndex, orderedTurns } from './index-db.ts';

/**
 * `db8 council replay`: rebuild a run from its artifacts alone — verify `journal.jsonl` (a journal
 * bundle, as a server room exports) and refold its entries with core's refoldLog — then check every artifact on disk against what the refolded state projects, the
 * decision record against the packet, and the index rows against both. Any difference is a
 * problem reported by name; nothing is repaired.
 */

export interface ReplayReport {
  runId: string;
  ok: boolean;
  entries: number;
  checked: number;
  problems: string[];
  state: CouncilState | null;
  /** The refolded state's hash (what the index records), when the log refolds. */
  stateSha256: string | null;
}

async function tryRead(path: string): Promise<{ ok: true; value: unknown } | { ok: false; why: string }> {
  try {
    return { ok: true, value: await readJson(path) };
  } catch (e) {
    return { ok: false, why: (e as Error).message.split('\n')[0]! };
  }
}

export async function replayRun(
  home: string,
  runId: string,
  index: CouncilIndex | null,
): Promise<ReplayReport> {
  const dir = runDir(home, runId);
  const problems: string[] = [];
  let checked = 0;
  const report = (
    state: CouncilState | null,
    entries: number,
    stateSha256: string | null = null,
  ): ReplayReport => ({
    runId,
    ok: problems.length === 0,
    entries,
    checked,
    problems,
    state,
    stateSha256,
  });

  // The log is a journal bundle: its own checks (leaves, checkpoints signed by the home's local
  // key, commit–reveal) first, then core's refold of its entries from the genesis.
  const text = await readFile(join(dir, ARTIFACT_PATHS.log), 'utf8').catch((e: NodeJS.ErrnoException) => {
    problems.push(`${ARTIFACT_PATHS.log}: ${e.code ?? e.message}`);
    return null;
  });
  if (text === null) return report(null, 0);
  const pub = await readFile(join(home, `${LOCAL_KEY_FILE}.pub`), 'utf8').catch(() => null);
  const bundle = verifyBundleText(text, pub ? { pinnedKey: pub.trim() } : {});
  for (const f of bundle.failures) problems.push(`${ARTIFACT_PATHS.log}: ${formatFailure(f)}`);
  const entries = journalEntries(parseJournalText(text).records.map((r) => r.value));
  if (bundle.room !== null && bundle.room !== runId)
    problems.push(`${ARTIFACT_PATHS.log}: belongs to run ${bundle.room}`);
  const folded = refoldLog(entries, new Map([[council.name, council]]));
  if (folded.skipped !== undefined) problems.push(`${ARTIFACT_PATHS.log}: cannot refold: ${folded.skipped}`);
  problems.push(...folded.problems.map((p) => `${ARTIFACT_PATHS.log}: ${p}`));
  if (folded.seq < 0 || folded.firstDivergence !== undefined || folded.skipped !== undefined)
    return report(null, entries.length);
  const state = folded.state as CouncilState;
  const stateSha256 = folded.stateHash!;
  const tl = checkTransitionLog(state.transitions);
  if (!tl.ok) problems.push(`transition log: ${tl.reason}`);
  if (state.status !== 'completed') problems.push(`the run is ${state.status}, not completed`);

  // Every JSON artifact must be exactly the projection of the replayed state.
  const expected: Record<string, unknown> = { ...stageArtifacts(state) };
  if (state.packet) expected[ARTIFACT_PATHS.packet] = state.packet;
  // The transition log is written by runs since it became an artifact; older runs lack the file.
  if (existsSync(join(dir, ARTIFACT_PATHS.transitions)))
    expected[ARTIFACT_PATHS.transitions] = transitionsArtifact(state);
  for (const [path, value] of Object.entries(expected)) {
    checked += 1;
    const onDisk = await tryRead(join(dir, path));
    if (!onDisk.ok) problems.push(`${path}: ${onDisk.why}`);
    else if (hashCanonical(onDisk.value) !== hashCanonical(value))
      problems.push(`${path}: differs from the replayed run`);
  }
  if (state.packet) {
    checked += 1;
    if (!FinalPacketSchema.safeParse(state.packet).success) problems.push('final packet: fails its schema');
    const md = await readFile(join(dir, ARTIFACT_PATHS.markdown), 'utf8').catch(() => null);
    if (md === null) problems.push(`${ARTIFACT_PATHS.markdown}: missing`);
    else if (md !== renderPacketMarkdown(state.packet))
      problems.push(`${ARTIFACT_PATHS.markdown}: differs from the packet`);
  }

  // The writeback: the decision record exists, is well-formed and names this packet.
  if (state.writeback) {
    checked += 1;
    const rec = await tryRead(join(home, state.writeback.recordPath));
    const parsed = rec.ok ? DecisionRecordSchema.safeParse(rec.value) : null;
    if (!rec.ok) problems.push(`${state.writeback.recordPath}: ${rec.why}`);
    else if (!parsed?.success) problems.push(`${state.writeback.recordPath}: not a decision record`);
    else if (parsed.data.run.packetSha256 !== state.packetSha256 || parsed.data.runId !== runId) {
      problems.push(`${state.writeback.recordPath}: does not reference this run's packet`);
    }
  }

  if (index) await checkIndex(index, state, stateSha256, problems);
  return report(state, entries.length, stateSha256);
}

async function checkIndex(index: CouncilIndex, state: CouncilState, stateSha256: string, problems: string[]) {
  const runId = state.config.runId;
  const row = await index.findRun(runId);
  if (!row || row.run_id !== runId) {
    problems.push('index: no row for this run');
    return;
  }
  if (row.state_sha256 !== stateSha256) problems.push('index: state hash differs');
  if (row.packet_sha256 !== state.packetSha256) problems.push('index: packet hash differs');
  if (row.status !== state.status) problems.push(`index: status ${row.status}, replay says ${state.status}`);
  const hashes = artifactHashes(state);
  for (const [path, sha] of Object.entries(hashes)) {
    if (row.artifacts[path] !== sha) problems.push(`index: hash of ${path} differs`);
  }
  const turns = await index.turns(runId);
  const want = orderedTurns(state);
  if (turns.length !== want.length) problems.push(`index: ${turns.length} turns, replay has ${want.length}`);
  for (const t of want) {
    const stage = t.kind === 'failed' ? t.stage : undefined;
    const r = turns.find(
      (x) => x.seq === t.seq && x.role === t.role && (stage === undefined || x.stage === stage),
    );
    const sha = t.kind === 'failed' ? null : hashCanonical(t.payload);
    if (!r || r.payload_sha256 !== sha || r.status !== (t.kind === 'failed' ? 'failed' : 'ok')) {
      problems.push(`index: turn ${t.role} at seq ${t.seq} differs`);
    }
  }
  const actions = await index.actions(runId);
  const packetActions = state.packet?.nextActions ?? [];
  const same =
    actions.length === packetActions.length &&
    actions.every(
      (a, i) =>
        a.action === packetActions[i]!.action &&
        a.owner === packetActions[i]!.owner &&
        a.due === packetActions[i]!.due &&
        a.source === packetActions[i]!.source,
    );
  if (!same) problems.push('index: next actions differ from the packet');
}
