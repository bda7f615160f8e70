import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteText, parseCheckpoint, verifyBundle } from '@db8/core';
import { Db8Client } from '@db8/sdk';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, describe, expect, it } from 'vitest';
import { AUCTION } from './routes-fixtures.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * The checkpoint origin comes from the server key, not PUBLIC_BASE_URL: nodes (or one node
 * restarted) with different public URLs over one store sign one room's log under one origin, and
 * the room's export verifies.
 */
describe('checkpoint origin', () => {
  it('two servers with different PUBLIC_BASE_URLs over one store: one origin, the export verifies', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'db8-origin-'));
    dirs.push(dataDir);
    const start = (publicUrl: string) =>
      startServer({
        port: 0,
        dataDir,
        publicUrl,
        logLevel: 'silent',
        adminLink: true,
        env: false,
        print: () => {},
      });
    // Clients call the server where it listens; publicUrl is only what links say.
    const local = (s: RunningServer) =>
      `http://127.0.0.1:${(s.app.server.address() as { port: number }).port}`;

    const first = await start('https://a.db8.example');
    const api1 = new Db8Client({ baseUrl: local(first) });
    const admin1 = api1.withToken((await api1.adminLogin(first.adminLink!.split('#token=')[1]!)).token);
    const room = await admin1.createRoom({ protocol: 'sealed-bid', config: AUCTION });
    const agent = await api1.registerAgent({ name: 'origin' });
    await api1.withToken(agent.api_key).join(room.room_id, { seat: 'bidder_1' });
    expect((await first.runtime.checkpoints(room.room_id)).length).toBeGreaterThan(0);
    await first.close();

    const second = await start('https://b.db8.example');
    try {
      const api2 = new Db8Client({ baseUrl: local(second) });
      const other = await api2.registerAgent({ name: 'origin2' });
      await api2.withToken(other.api_key).join(room.room_id, { seat: 'bidder_2' });
      const admin2 = api2.withToken((await api2.adminLogin(second.adminLink!.split('#token=')[1]!)).token);
      const records: Record<string, unknown>[] = [];
      for await (const r of admin2.export(room.room_id)) records.push(r);
      const origins = new Set(
        (await second.runtime.checkpoints(room.room_id)).map((c) => parseCheckpoint(noteText(c.note)).origin),
      );
      expect(origins.size).toBe(1);
      const result = verifyBundle(records);
      expect(result.failures ?? []).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.checkpoints).toBeGreaterThan(1);
    } finally {
      await second.close();
    }
  }, 120_000);
});
