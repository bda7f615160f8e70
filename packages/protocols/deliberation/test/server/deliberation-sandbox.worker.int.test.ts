import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { migrate } from '@db8/server/src/store/migrate.ts';
import { adminToken, call, routeApps } from '@db8/server/test/routes-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliberationState, Measurement } from '../../rules/index.ts';
import { deliberationModule } from '../../server/index.ts';
import { type SandboxRuns, sqlSandboxRuns, sweepLegacyTempDirs } from '../../server/sandbox-runs.ts';
import { DeliberationWorker, RUN_LEASE_SLACK_MS } from '../../server/worker.ts';

// The measurer's side of issue 21: a version whose run never finished (the server died during it)
// is recorded once as an interrupted, failed measurement and never run again; code that signals
// its runner's parent leaves the server running and is measured once; the runs ledger on the
// store; leftover temp dirs of the old sandbox are swept; a code task is refused at creation
// (409 SANDBOX_UNAVAILABLE) where no sandbox can start.

const GOOD_ADD = 'export const add = (a, b) => a + b;';
const TESTS = `import assert from 'node:assert/strict';
import { add } from './solution.mjs';
export default { adds: () => assert.equal(add(1, 2), 3) };`;
const ROOM = 'room_sandbox_worker';

/** A deliberation room with one code version, as the worker reads it, that records measurements. */
function fakeRuntime(code: string) {
  const measures: { version: number; measurement: Measurement }[] = [];
  const state = {
    config: { task: { kind: 'code', tests: TESTS } },
    codeVersions: [
      { version: 1, turnSeq: 1, language: 'javascript', code, measuredAt: null as number | null },
    ],
  };
  let seq = 1;
  const runtime = {
    getRoom: async () => ({ protocol: 'deliberation' }),
    stateFor: async () => {
      throw new Error('unused');
    },
    protocolState: async () => ({
      seq,
      ts: 1000 + seq,
      closed: false,
      state: state as unknown as DeliberationState,
    }),
    act: async (_room: string, a: { action: unknown }) => {
      measures.push(a.action as { version: number; measurement: Measurement });
      state.codeVersions[0]!.measuredAt = 2000 + seq++;
      return { seq, duplicate: false, ts: 2000 + seq };
    },
  };
  return { runtime: runtime as unknown as ConstructorParameters<typeof DeliberationWorker>[0], measures };
}

const quiet = { warn() {}, info() {} };

let store: Store;
let runs: SandboxRuns;
beforeAll(async () => {
  store = await openStore({ memory: true });
  await migrate(store.db, deliberationModule.migrations ?? []);
  runs = sqlSandboxRuns(store.db);
});
afterAll(async () => {
  await store.close();
});

describe('the runs ledger on the store', () => {
  it('claims a run once; an expired claim is an interrupted run, a live one is busy', async () => {
    expect(await runs.begin('r1', 1, 1_000, 5_000)).toEqual({ kind: 'run' });
    expect(await runs.begin('r1', 1, 2_000, 5_000)).toEqual({ kind: 'busy', until: 6_000 });
    expect(await runs.begin('r1', 1, 6_000, 5_000)).toEqual({ kind: 'interrupted', startedAt: 1_000 });
    await runs.finish('r1', 1);
    expect(await runs.begin('r1', 1, 7_000, 5_000)).toEqual({ kind: 'run' });
    await runs.finish('r1', 1);
  });
});

describe('the measurer after a crash', () => {
  it('records a version whose run never finished as interrupted, once, without running it', async () => {
    // A previous life of this server claimed version 1 and died during the run.
    const lease = 10_000 + RUN_LEASE_SLACK_MS;
    expect(await runs.begin(ROOM, 1, Date.now() - lease - 1, lease)).toEqual({ kind: 'run' });
    const { runtime, measures } = fakeRuntime(GOOD_ADD);
    const worker = new DeliberationWorker(runtime, quiet, { limits: { timeoutMs: 10_000 } }, runs);
    worker.poke(ROOM);
    await worker.idle();
    worker.poke(ROOM);
    await worker.idle();
    expect(measures).toHaveLength(1);
    // The code is right: had it run, it would have measured 1.
    expect(measures[0]!.measurement).toMatchObject({
      testPassRate: 0,
      metrics: { crashed: 1, interrupted: 1 },
    });
    expect(worker.results.get(`${ROOM}/1`)?.output).toMatch(/never finished/);
    expect(await runs.begin(ROOM, 1, Date.now(), lease)).toEqual({ kind: 'run' }); // released
    await runs.finish(ROOM, 1);
    await worker.close();
  });

  it('code that kills its parent and pid 1 leaves the server running and is measured once', async () => {
    const { runtime, measures } = fakeRuntime(
      `export const add = (a, b) => a + b;\nfor (const pid of [process.ppid, 1]) try { process.kill(pid, 'SIGKILL'); } catch {}`,
    );
    const worker = new DeliberationWorker(runtime, quiet, {}, runs);
    worker.poke('room_killer');
    await worker.idle();
    worker.poke('room_killer');
    await worker.idle();
    expect(measures).toHaveLength(1);
    expect(measures[0]!.measurement.testPassRate).toBe(1);
    expect(await runs.begin('room_killer', 1, Date.now(), 1)).toEqual({ kind: 'run' }); // claim released
    await worker.close();
  });
});

describe('leftovers and refusals', () => {
  it('sweeps leftover db8-sandbox-* temp dirs older than a run, never fresh ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'db8-sweep-'));
    try {
      await mkdir(join(dir, 'db8-sandbox-old'));
      await mkdir(join(dir, 'db8-sandbox-fresh'));
      await mkdir(join(dir, 'other-old'));
      const past = new Date(Date.now() - 3_600_000);
      await utimes(join(dir, 'db8-sandbox-old'), past, past);
      await utimes(join(dir, 'other-old'), past, past);
      expect(await sweepLegacyTempDirs(dir)).toEqual(['db8-sandbox-old']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const apps = routeApps();
  it('refuses a code task with tests at creation where no sandbox starts (409 SANDBOX_UNAVAILABLE)', async () => {
    const h = await apps.make({ env: { DB8_SANDBOX_BWRAP: '/nonexistent/bwrap' }, mountModules: true });
    const token = await adminToken(h);
    const task = { kind: 'code', language: 'javascript', tests: TESTS };
    const seats = ['ana', 'ben', 'cai'].map((name) => ({ name, role: 'architect', provider: 'scripted' }));
    const debate = await call(h, 'POST', '/v1/debates', {
      token,
      body: { topic: 'add', participants: seats, task },
    });
    expect(debate.status, JSON.stringify(debate.body)).toBe(409);
    expect(debate.body.error).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    expect(debate.body.error.details.reason).toMatch(/not installed|cannot start/);
    const room = await call(h, 'POST', '/v1/rooms', {
      token,
      body: { protocol: 'deliberation', config: { task } },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(409);
    expect(room.body.error).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    // A text task needs no sandbox.
    const text = await call(h, 'POST', '/v1/debates', { token, body: { topic: 'add', participants: seats } });
    expect(text.status).toBe(201);
  });
});
