// Durability under kill -9 (issue 14): a real server process, embedded PGlite and Postgres, takes
// bids with client nonces from WebSocket clients and is SIGKILLed mid-load three times, restarting
// on the same store each time. Afterwards no acknowledged bid is missing or moved, none is in the
// log twice, a same-nonce retry answers the first seq, the checkpoints and the admin export verify
// against the server key, and a refold from entry 0 matches the stored state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.ts';
import { auditRoom, replayRooms, retryAcked, retrySample } from './durability.checks.ts';
import {
  adminToken,
  biddingRoom,
  killAllServers,
  killServer,
  Load,
  type ServerProc,
  spawnServer,
  stopServer,
  takeSeats,
  within,
} from './durability.helpers.ts';
import { createPgSchema, PG_URL, pgStoreIn } from './store.helpers.ts';

const KILLS = 3;
/** Acks to collect in each server incarnation before it is killed (and in the last one). */
const PER_PHASE = 150;
const BIDDERS = ['bidder_1', 'bidder_2', 'bidder_3', 'bidder_4'];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await killAllServers();
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

interface Target {
  env: Record<string, string>;
  /** Opens the store the server used (call only once it is stopped: PGlite is single-process). */
  open(): Promise<Store>;
}

async function embedded(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-dur-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  // Made here, from the test PGlite template (test/pglite-template.ts), so the server's first start
  // skips initdb (seconds of CPU); every start of the server then opens an existing store.
  await (await openStore({ env: false, dataDir: dir })).close();
  return { env: { DB8_DATA_DIR: dir }, open: () => openStore({ env: false, dataDir: dir }) };
}

async function postgres(): Promise<Target> {
  const { schema, drop } = await createPgSchema();
  const dir = mkdtempSync(join(tmpdir(), 'db8-dur-pg-'));
  cleanups.push(drop, async () => rmSync(dir, { recursive: true, force: true }));
  return {
    env: { DB8_DATA_DIR: dir, DATABASE_URL: PG_URL, DB8_PG_SCHEMA: schema },
    open: () => pgStoreIn(schema, 2),
  };
}

async function killCycles(label: string, target: Target): Promise<void> {
  const t0 = Date.now();
  const marks: string[] = [];
  let server: ServerProc = await spawnServer(target.env);
  const admin = await adminToken(server);
  const rooms = [await biddingRoom(server.url, admin, 5), await biddingRoom(server.url, admin, 5)];
  const seats = [];
  for (const r of rooms) seats.push(...(await takeSeats(server.url, r, BIDDERS)));
  const load = new Load(seats, () => server.url);
  const stats = () =>
    `${load.acked.length} acked, phase ${load.phase}, ${marks.join(', ')}, failures ${load.failures.join('; ')}`;
  load.start();
  marks.push(`setup ${Date.now() - t0}`);
  for (let k = 0; k < KILLS; k++) {
    await within(60_000, stats, load.acksInPhase(PER_PHASE));
    marks.push(`phase ${k} ${Date.now() - t0}`);
    load.pause();
    await killServer(server);
    load.nextPhase();
    // Same store and key; another port (the checkpoint origin comes from the key, not the URL).
    server = await spawnServer(target.env);
    load.resume();
    marks.push(`up ${Date.now() - t0}`);
  }
  await within(60_000, stats, load.acksInPhase(PER_PHASE));
  await within(60_000, stats, load.stop());
  const loadMs = Date.now() - t0;

  expect(load.failures).toEqual([]);
  expect(load.phase).toBe(KILLS);
  // The kills landed mid-load: bids were on the wire (resent after a restart), and every server
  // incarnation acknowledged some.
  expect(load.resent.length).toBeGreaterThan(0);
  for (let p = 0; p <= KILLS; p++) expect(load.acked.filter((a) => a.phase === p).length).toBeGreaterThan(0);

  let entries = 0;
  let checkpoints = 0;
  for (const room of rooms) {
    const audit = await auditRoom(server.url, admin, room);
    expect(audit.verify.failures).toEqual([]);
    expect(audit.verify.ok).toBe(true);
    expect(audit.verify.keyPinned).toBe(true);
    const acked = load.acked.filter((a) => a.room === room);
    // No acknowledged bid lost or moved: each is in the log at the seq its ack named.
    const lost = acked.filter((a) => audit.bids.get(a.seq) !== a.amount);
    expect(lost).toEqual([]);
    // Nothing twice (a resent bid was committed once) and nothing that was never acknowledged.
    expect(new Set(audit.amounts).size).toBe(audit.amounts.length);
    expect([...audit.amounts].sort()).toEqual([...new Set(acked.map((a) => a.amount))].sort());
    // Checkpoints: strictly growing sizes within the log, every one signed over the export's tree.
    expect(audit.checkpointSizes.length).toBeGreaterThanOrEqual(Math.floor(audit.entries / 64));
    expect(audit.checkpointSizes).toEqual([...new Set(audit.checkpointSizes)].sort((a, b) => a - b));
    expect(Math.max(...audit.checkpointSizes)).toBeLessThanOrEqual(audit.entries);
    expect(audit.checkpointMismatches).toBe(0);
    entries += audit.entries;
    checkpoints += audit.checkpointSizes.length;
  }

  // Same-nonce retries, after the last restart: the acks nearest each kill, the bids resent after
  // one, and a spread of the rest.
  const resentNonces = new Set(load.resent.map((r) => r.nonce));
  const sample = [
    ...new Set([...retrySample(load.acked), ...load.acked.filter((a) => resentNonces.has(a.nonce))]),
  ];
  const retries = await retryAcked(server.url, seats, sample);
  expect(retries.filter((r) => r.seq !== r.firstSeq || !r.duplicate)).toEqual([]);

  // Replay: refold from entry 0 on the store itself, the server stopped.
  await stopServer(server);
  const store = await target.open();
  try {
    const reports = await replayRooms(store, rooms);
    for (const r of reports) {
      expect(r.problems).toEqual([]);
      expect(r.ok).toBe(true);
    }
  } finally {
    await store.close();
  }
  console.log(marks.join(', '));
  console.log(
    `durability ${label}: ${KILLS} kill -9, ${load.acked.length} acks (${new Set(load.acked.map((a) => a.nonce)).size} bids), ` +
      `${load.resent.length} resent after a kill, ${load.rateLimited} rate-limited, ${entries} entries, ` +
      `${checkpoints} checkpoints, ${retries.length} same-nonce retries, 0 lost; load ${loadMs} ms, total ${Date.now() - t0} ms`,
  );
}

// The two stores run side by side: most of the time is server start-up, one core each. Each test
// takes some 7 s of CPU per server start; the timeout is a bound for a machine shared with others.
describe.concurrent('kill -9 under load', { timeout: 240_000 }, () => {
  it('embedded PGlite: three kills, no acknowledged entry lost, export and replay verify', async () => {
    await killCycles('PGlite', await embedded());
  });

  it('Postgres: three kills, no acknowledged entry lost, export and replay verify', async () => {
    await killCycles('Postgres', await postgres());
  });
});
