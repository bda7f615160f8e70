// Durable appends through the room runtime, and room load times, on PGlite (on disk) and on real
// PostgreSQL (a throwaway schema in database `test`). Figures only; nothing here asserts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverKeyFromSeed } from '../packages/server/src/keys/index.ts';
import { Runtime } from '../packages/server/src/runtime/index.ts';
import { loadMemo } from '../packages/server/src/runtime/load.ts';
import { migrate, openStore, postgresDriver, Store } from '../packages/server/src/store/index.ts';
import { counterRegistry } from '../packages/server/test/fixtures/counter.ts';
import type { BenchRow } from './types.ts';

const AREA = 'store';
const PG_URL = process.env.DB8_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEY = serverKeyFromSeed(new Uint8Array(32).fill(1), 'db8.bench');
const BIG_ROOM = 100_000;

const note = (i: number) => ({ seat: 'p1', action: { type: 'note', text: `n${i}` } });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function room(rt: Runtime): Promise<string> {
  return (await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 9 } })).id;
}

/** `total` actions kept `inFlight` at a time, spread over `rooms`; returns actions per second. */
async function throughput(rt: Runtime, rooms: string[], total: number, inFlight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < total; i = next++) await rt.act(rooms[i % rooms.length] as string, note(i));
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

async function measure(
  driver: string,
  store: Store,
  budget: { oneRoom: number; manyRooms: number; latency: number },
) {
  const rows: BenchRow[] = [];
  const rt = new Runtime({ store, protocols: counterRegistry, serverKey: KEY, origin: 'db8.bench' });
  const goal = driver === 'postgres' ? '≥ 2,000/s' : undefined;

  const one = await room(rt);
  await throughput(rt, [one], 200, 64); // warm-up
  rows.push({
    area: AREA,
    name: `${driver}: appends/s, one room (64 in flight)`,
    value: await throughput(rt, [one], budget.oneRoom, 64),
    unit: 'appends/s',
    ...(goal ? { goal } : {}),
  });

  const many: string[] = [];
  for (let i = 0; i < 100; i++) many.push(await room(rt));
  rows.push({
    area: AREA,
    name: `${driver}: appends/s, 100 rooms (200 in flight)`,
    value: await throughput(rt, many, budget.manyRooms, 200),
    unit: 'appends/s',
    ...(goal ? { goal } : {}),
  });

  const lat: number[] = [];
  const solo = await room(rt);
  for (let i = 0; i < budget.latency; i++) {
    const t = performance.now();
    await rt.act(solo, note(i));
    lat.push(performance.now() - t);
  }
  lat.sort((x, y) => x - y);
  rows.push({
    area: AREA,
    name: `${driver}: append latency p50 (one client)`,
    value: percentile(lat, 50),
    unit: 'ms',
  });
  rows.push({
    area: AREA,
    name: `${driver}: append latency p99 (one client)`,
    value: percentile(lat, 99),
    unit: 'ms',
  });

  // A 100k-entry room, filled through a runtime allowed big batches, then loaded cold.
  const filler = new Runtime({
    store,
    protocols: counterRegistry,
    serverKey: KEY,
    origin: 'db8.bench',
    maxBatch: 2048,
  });
  const big = await room(filler);
  const tFill = performance.now();
  await throughput(filler, [big], BIG_ROOM - 1, 2048);
  await filler.drain();
  const fillRate = (BIG_ROOM - 1) / ((performance.now() - tFill) / 1000);
  rows.push({
    area: AREA,
    name: `${driver}: fill a 100k room (2048 in flight)`,
    value: fillRate,
    unit: 'appends/s',
  });
  const loads: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const m = await loadMemo(store, counterRegistry, big);
    loads.push(performance.now() - t);
    if (m.seq !== BIG_ROOM - 1) throw new Error(`loaded seq ${m.seq}`);
  }
  const t = performance.now();
  const full = await loadMemo(store, counterRegistry, big, { fromScratch: true });
  const fullMs = performance.now() - t;
  if (full.seq !== BIG_ROOM - 1) throw new Error(`refolded seq ${full.seq}`);
  rows.push({
    area: AREA,
    name: `${driver}: load 100k-entry room (snapshot + tail)`,
    value: Math.min(...loads),
    unit: 'ms',
    peer: 'full refold',
    peerValue: fullMs,
    goal: '< 1,000 ms',
  });
  await rt.drain();
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-'));
  try {
    const store = await openStore({ dataDir: dir });
    try {
      rows.push(...(await measure('pglite', store, { oneRoom: 3000, manyRooms: 3000, latency: 300 })));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const schema = `db8_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  try {
    const db = postgresDriver(PG_URL, { schema, max: 10 });
    await migrate(db);
    const store = new Store(db);
    try {
      rows.push(...(await measure('postgres', store, { oneRoom: 10_000, manyRooms: 10_000, latency: 500 })));
    } finally {
      await store.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
  return rows;
}
