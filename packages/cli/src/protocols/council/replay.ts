import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashCanonical } from '@db8/core';
import {
  ARTIFACT_PATHS,
  CouncilLogSchema,
  type CouncilState,
  checkTransitionLog,
  FinalPacketSchema,
  refold,
  renderPacketMarkdown,
  stageArtifacts,
} from '@db8/protocols/council';
import { artifactHashes, DecisionRecordSchema } from './artifacts.ts';
import { readJson, runDir } from './files.ts';
import { type CouncilIndex, orderedTurns } from './index-db.ts';

/**
 * `db8 council replay`: rebuild a run from its JSON artifacts alone — refold `log.json` through
 * the protocol — then check every artifact on disk against what the refolded state projects, the
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
  const report = (state: CouncilState | null, entries: number): ReplayReport => ({
    runId,
    ok: problems.length === 0,
    entries,
    checked,
    problems,
    state,
  });

  const raw = await tryRead(join(dir, ARTIFACT_PATHS.log));
  if (!raw.ok) {
    problems.push(`${ARTIFACT_PATHS.log}: ${raw.why}`);
    return report(null, 0);
  }
  const log = CouncilLogSchema.safeParse(raw.value);
  if (!log.success) {
    problems.push(
      `${ARTIFACT_PATHS.log}: ${log.error.issues[0]?.path.join('.')}: ${log.error.issues[0]?.message}`,
    );
    return report(null, 0);
  }
  if (log.data.genesis.config.runId !== runId)
    problems.push(`${ARTIFACT_PATHS.log}: belongs to run ${log.data.genesis.config.runId}`);
  const folded = refold(log.data);
  if (!folded.ok) {
    problems.push(`${ARTIFACT_PATHS.log}: entry ${folded.at} does not replay (${folded.reason})`);
    return report(null, log.data.entries.length);
  }
  const state = folded.state;
  if (folded.stateSha256 !== log.data.stateSha256)
    problems.push(`${ARTIFACT_PATHS.log}: replayed state hash differs from the recorded one`);
  const tl = checkTransitionLog(state.transitions);
  if (!tl.ok) problems.push(`transition log: ${tl.reason}`);
  if (state.status !== 'completed') problems.push(`the run is ${state.status}, not completed`);

  // Every JSON artifact must be exactly the projection of the replayed state.
  const expected: Record<string, unknown> = { ...stageArtifacts(state) };
  if (state.packet) expected[ARTIFACT_PATHS.packet] = state.packet;
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

  if (index) await checkIndex(index, state, folded.stateSha256, problems);
  return report(state, log.data.entries.length);
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
