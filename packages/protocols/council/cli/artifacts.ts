import { join } from 'node:path';
import { hashCanonical, journalText, localJournal } from '@db8/core';
import { z } from 'zod';
import type { CouncilRoom } from '../agent/index.ts';
import {
  ARTIFACT_PATHS,
  type CouncilState,
  type FinalPacket,
  renderPacketMarkdown,
  stageArtifacts,
  transitionsArtifact,
} from '../rules/index.ts';
import { recordRelPath, writeAtomic, writeJson } from './files.ts';

/**
 * The run's artifacts and the decision record (the "Local Brain" writeback). The stage artifacts
 * and the packet are projections of the protocol state, so what is written here is exactly what
 * the packet references and what replay recomputes.
 */

/** path → SHA-256 of the canonical JSON, for every JSON artifact the packet or the index names. */
export function artifactHashes(state: CouncilState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, value] of Object.entries(stageArtifacts(state))) out[path] = hashCanonical(value);
  if (state.packet) out[ARTIFACT_PATHS.packet] = hashCanonical(state.packet);
  return out;
}

/** Write request, rounds, consensus, judge, final-packet.json and final-packet.md. */
export async function writeRunArtifacts(dir: string, state: CouncilState): Promise<void> {
  if (!state.packet) throw new Error('no packet: the run did not reach Packetize');
  for (const [path, value] of Object.entries(stageArtifacts(state))) await writeJson(join(dir, path), value);
  await writeJson(join(dir, ARTIFACT_PATHS.packet), state.packet);
  await writeAtomic(join(dir, ARTIFACT_PATHS.markdown), renderPacketMarkdown(state.packet));
}

/**
 * The run's log as a journal bundle (journal.jsonl): the LocalRoom's entries, the same format a
 * server room exports, checkpoints signed with the home's local key. `db8 verify` checks it.
 */
export async function writeRunLog(
  dir: string,
  room: CouncilRoom,
  key: Uint8Array,
  now: number,
): Promise<void> {
  const records = localJournal(room, {
    key,
    exportedAt: new Date(now).toISOString(),
    title: room.state.config.question,
  });
  await writeAtomic(join(dir, ARTIFACT_PATHS.log), journalText(records));
  // With the log, so it holds every transition up to the last entry (the writeback included).
  await writeJson(join(dir, ARTIFACT_PATHS.transitions), transitionsArtifact(room.state));
}

export const DecisionRecordSchema = z
  .object({
    format: z.literal('db8.decision-record/v1'),
    /** `decision`, or `worklog` for writing work (the request's outputType). */
    type: z.enum(['decision', 'worklog']),
    runId: z.string(),
    createdAt: z.string(),
    question: z.string(),
    decision: z.object({ summary: z.string(), verdict: z.string(), source: z.string() }).strict(),
    rationale: z.string(),
    risks: z.array(z.string()),
    nextActions: z.array(z.object({ action: z.string(), owner: z.string(), due: z.string() }).strict()),
    scores: z.object({ consensus: z.number(), confidence: z.number() }).strict(),
    degraded: z.boolean(),
    scripted: z.boolean(),
    /** The evidence: the run directory and the packet with its canonical hash. */
    run: z.object({ dir: z.string(), packet: z.string(), packetSha256: z.string() }).strict(),
  })
  .strict();
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

const RATIONALE_CHARS = 1200;
const TOP_RISKS = 5;

export function decisionRecord(packet: FinalPacket, packetSha256: string): DecisionRecord {
  const dir = `records/debates/${packet.runId}`;
  const rationale =
    packet.rationale.length > RATIONALE_CHARS
      ? `${packet.rationale.slice(0, RATIONALE_CHARS - 1)}…`
      : packet.rationale;
  return {
    format: 'db8.decision-record/v1',
    type: packet.outputType,
    runId: packet.runId,
    createdAt: packet.createdAt,
    question: packet.question,
    decision: packet.decision,
    rationale,
    risks: packet.risks.slice(0, TOP_RISKS).map((r) => r.risk),
    nextActions: packet.nextActions.map(({ action, owner, due }) => ({ action, owner, due })),
    scores: { consensus: packet.scores.consensus, confidence: packet.scores.confidence },
    degraded: packet.degradation.degraded,
    scripted: packet.scripted,
    run: { dir, packet: `${dir}/${ARTIFACT_PATHS.packet}`, packetSha256 },
  };
}

export async function writeDecisionRecord(home: string, record: DecisionRecord): Promise<string> {
  const rel = recordRelPath(record.runId);
  await writeJson(join(home, rel), record);
  return rel;
}
