// The local store in-process (no PGlite, no spawn): what a run writes, that replay accepts it
// without an index, the worklog writeback, and that a storage failure aborts the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalEntries, parseJournalText } from '@db8/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DecisionRecordSchema } from '../../cli/artifacts.ts';
import { replayRun } from '../../cli/replay.ts';
import { runLocalCouncil, StorageError } from '../../cli/run.ts';

const root = mkdtempSync(join(tmpdir(), 'db8-council-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('council local store', () => {
  it('writes a worklog record that references the packet, and replays from the files alone', async () => {
    const home = join(root, 'a');
    const res = await runLocalCouncil({
      home,
      question: 'Draft the release notes?',
      provider: 'scripted',
      outputType: 'worklog',
      index: false,
      env: {},
    });
    expect(res.status).toBe('completed');
    const record = DecisionRecordSchema.parse(JSON.parse(readFileSync(join(home, res.recordPath!), 'utf8')));
    expect(record).toMatchObject({
      type: 'worklog',
      runId: res.runId,
      scripted: true,
      run: { packetSha256: res.packetSha256 },
    });
    const rep = await replayRun(home, res.runId, null);
    expect(rep).toMatchObject({ ok: true, problems: [], checked: 10 });
    expect(rep.state?.transitions.map((t) => t.to)).toEqual([
      'Intake',
      'Round1',
      'Round2',
      'Round3',
      'Consensus',
      'Judge',
      'Packetize',
      'Writeback',
      null,
    ]);
  });

  it('replay reports a decision record that names another packet, and a missing markdown file', async () => {
    const home = join(root, 'b');
    const res = await runLocalCouncil({ home, question: 'q?', provider: 'scripted', index: false, env: {} });
    const recPath = join(home, res.recordPath!);
    const rec = JSON.parse(readFileSync(recPath, 'utf8'));
    rec.run.packetSha256 = 'f'.repeat(64);
    writeFileSync(recPath, JSON.stringify(rec));
    rmSync(join(res.runDir, 'final-packet.md'));
    const rep = await replayRun(home, res.runId, null);
    expect(rep.ok).toBe(false);
    expect(rep.problems).toEqual([
      'final-packet.md: missing',
      `records/decisions/${res.runId}.json: does not reference this run's packet`,
    ]);
  });

  it('when storage is unavailable the run aborts (a structural failure) instead of completing', async () => {
    const home = join(root, 'c');
    const res0 = await runLocalCouncil({ home, question: 'q?', provider: 'scripted', index: false, env: {} });
    // A file where the decisions directory should be: writing the record fails.
    rmSync(join(home, 'records', 'decisions'), { recursive: true });
    writeFileSync(join(home, 'records', 'decisions'), 'not a directory');
    const err = await runLocalCouncil({
      home,
      question: 'q?',
      provider: 'scripted',
      index: false,
      env: {},
      runId: 'storage-test',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(String(err.message)).toMatch(/storage unavailable, run storage-test aborted/);
    // The log (a journal bundle) ends with the operator's abort and the close it caused.
    const entries = journalEntries(
      parseJournalText(
        readFileSync(join(home, 'records', 'debates', 'storage-test', 'journal.jsonl'), 'utf8'),
      ).records.map((r) => r.value),
    );
    expect(entries.at(-1)).toMatchObject({ kind: 'close' });
    expect(entries.at(-2)).toMatchObject({
      kind: 'action',
      actor: 'operator',
      payload: { type: 'abort', error: { code: 'STORAGE_UNAVAILABLE' } },
    });
    expect(res0.status).toBe('completed');
  });
});
