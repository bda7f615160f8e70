// `db8 replay <room>`, spawned as a user would run it, on an embedded store made by the runtime.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProtocolRegistry } from '@db8/core';
import { sealedBid } from '@db8/sealed-bid';
import { generateServerKey, openStore, Runtime } from '@db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-replay-'));
let roomId = '';

function db8(args: string[]) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, timeout: 120_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

beforeAll(async () => {
  const store = await openStore({ dataDir: dir });
  const rt = new Runtime({
    store,
    protocols: createProtocolRegistry([sealedBid]),
    serverKey: generateServerKey(),
  });
  const room = await rt.createRoom({
    protocol: 'sealed-bid',
    config: {
      item: 'lamp',
      bidders: 2,
      reservePrice: 10,
      biddingWindowMs: 60_000,
      revealWindowMs: 60_000,
      rule: 'first-price',
    },
  });
  roomId = room.id;
  await rt.act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 12 } });
  await rt.act(roomId, { seat: 'bidder_2', action: { type: 'bid', amount: 15 } });
  await rt.drain();
  await store.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each run starts embedded Postgres in a fresh process: seconds alone, much more on a busy machine.
describe('db8 replay', { timeout: 120_000 }, () => {
  it('reports ok for an intact room', () => {
    const r = db8(['replay', roomId, '--data-dir', dir, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ ok: true, seq: 2, problems: [] });
    expect(report.stateHash).toBe(report.storedStateHash);
  });

  it('exits 3 and names the first divergence when an entry was edited', async () => {
    const store = await openStore({ dataDir: dir });
    await store.db.query(
      `UPDATE entries SET public_json = replace(public_json, '"ts":', '"ts":1') WHERE room_id = $1 AND seq = 1`,
      [roomId],
    );
    await store.close();
    const r = db8(['replay', roomId, '--data-dir', dir]);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('DIVERGED');
    expect(r.stderr.trim()).toBe(`db8: replay of ${roomId} diverged (first divergence at seq 1)`);
  });

  it('an unknown room is one error line', () => {
    const r = db8(['replay', 'room_nope', '--data-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^db8: no room room_nope$/);
  });
});
