// `db8 replay` against stored state that was tampered with (replay.test.ts covers an edited
// entry): a snapshot whose body no longer matches the log, and a snapshot hash that lies. The room
// is a sealed-bid auction built through the runtime on a PGlite data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db8, sealedBidRoom, sealedBidRuntime } from './journal-fixtures.ts';

// Each spawned CLI starts tsx (and PGlite for the store commands): seconds apiece on a busy machine.
const dir = mkdtempSync(join(tmpdir(), 'db8-replay-snap-'));
let roomId = '';
let snapshots: Array<{ seq: number; stateHash: string }> = [];

const replay = (...extra: string[]) =>
  db8(['replay', roomId, '--data-dir', dir, ...extra], { env: { DATABASE_URL: '' } });

async function sql(query: string, params: unknown[]): Promise<void> {
  const store = await openStore({ dataDir: dir });
  try {
    await store.db.query(query, params);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  const store = await openStore({ dataDir: dir });
  const rt = sealedBidRuntime(store);
  roomId = await sealedBidRoom(rt);
  await rt.drain();
  snapshots = await store.snapshots.hashes(roomId);
  await store.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('db8 replay: tampered snapshots', { timeout: 180_000 }, () => {
  it('an intact room replays ok from entry 0 (exit 0)', () => {
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    const r = replay('--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, seq: 11, problems: [] });
  });

  it('a snapshot body edited in the database: the stored state no longer equals the refold (exit 3)', async () => {
    const last = snapshots.at(-1)!;
    // bidder_1's winning amount, inside the snapshot's state
    await sql(
      `UPDATE snapshots SET body_json = replace(body_json, '"amount":150', '"amount":15') WHERE room_id = $1 AND seq = $2`,
      [roomId, last.seq],
    );
    const r = replay('--json');
    expect(r.status).toBe(3);
    const report = JSON.parse(r.stdout.split('\n')[0]!);
    expect(report.ok).toBe(false);
    expect(report.stateHash).not.toBe(report.storedStateHash);
    expect(report.problems.join('\n')).toMatch(/refolded state differs from the stored state/);
    expect(r.stderr.trim()).toBe(
      `db8: replay of ${roomId} diverged (first divergence at seq ${report.firstDivergence})`,
    );
    await sql(
      `UPDATE snapshots SET body_json = replace(body_json, '"amount":15,', '"amount":150,') WHERE room_id = $1 AND seq = $2`,
      [roomId, last.seq],
    );
    expect(replay().status).toBe(0);
  });

  it('a snapshot state hash that does not match the refold names that snapshot seq', async () => {
    const snap = snapshots[1]!;
    await sql('UPDATE snapshots SET state_hash = $3 WHERE room_id = $1 AND seq = $2', [
      roomId,
      snap.seq,
      '0'.repeat(64),
    ]);
    const r = replay();
    expect(r.status).toBe(3);
    expect(r.stderr.trim()).toBe(`db8: replay of ${roomId} diverged (first divergence at seq ${snap.seq})`);
  });
});
