import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/patience.ts';

// End-to-end suites: the CLI spawned against a real server or a stored data directory, whole
// servers started on disk, and long scripted or simulated games. They need no outside services but
// take minutes, so `npm test` leaves them out; `npm run test:e2e` runs them, and .ci/run runs both.
// A suite named *.e2e.test.ts lands here by itself; the others are listed. The spawned-CLI suites
// share the prebuilt CLI bundle (test/cli-bundle.ts) like the fast suite; debate.e2e spawns the
// installed entry itself (packages/app/bin/db8.js: the same bundle when current, else tsx), as a
// user runs it; start.e2e checks that entry's start-up path.
export const E2E_SUITES = [
  'packages/**/test/**/*.e2e.test.ts',
  // the CLI spawned against a server or a data directory (PGlite starts in every child), or many
  // times over files (canon, hash, sshsig, PHH folders)
  'packages/cli/test/canon.test.ts',
  'packages/cli/test/sshsig.test.ts',
  'packages/cli/test/login-local.test.ts',
  'packages/protocols/poker/test/cli/poker-phh.test.ts',
  'packages/protocols/council/test/cli/council.test.ts',
  'packages/protocols/council/test/cli/council.index.test.ts',
  'packages/cli/test/journal.test.ts',
  'packages/protocols/poker/test/cli/poker.test.ts',
  'packages/protocols/poker/test/cli/poker-journal.test.ts',
  'packages/cli/test/replay.test.ts',
  'packages/cli/test/replay-snapshot.test.ts',
  'packages/cli/test/room.test.ts',
  // whole servers (startServer on a data directory, two nodes) and whole games
  'packages/server/test/app.main.test.ts',
  'packages/protocols/council/test/server/drivers.council.test.ts',
  'packages/protocols/debate/test/server/drivers.debate.test.ts',
  'packages/server/test/main.links.test.ts',
  'packages/server/test/origin.test.ts',
  'packages/server/test/main.store.test.ts',
  'packages/server/test/modules.test.ts',
  'packages/protocols/poker/test/server/poker-sim.test.ts',
  // whole deliberations and debates (a server, the CLI, the sandbox, a git journal)
  'packages/protocols/deliberation/test/cli/deliberate.test.ts',
  'packages/protocols/deliberation/test/cli/deliberate-tools.test.ts',
  'packages/protocols/deliberation/test/cli/deliberate-lessons.test.ts',
  'packages/protocols/deliberation/test/server/deliberation.server.test.ts',
  'packages/protocols/deliberation/test/server/deliberation.reflexion.test.ts',
  'packages/protocols/deliberation/test/server/deliberation.scenario.test.ts',
  'packages/protocols/deliberation/test/server/deliberation.tools.test.ts',
  'packages/protocols/debate/test/server/debate.journal.test.ts',
  'packages/protocols/debate/test/server/debate.seed-client.test.ts',
  // property suites: thousands of random games each
  'packages/**/test/**/*.property.test.ts',
  'packages/protocols/poker/test/rules/properties.test.ts',
  'packages/protocols/poker/test/rules/table/properties.test.ts',
  // real timers and a restart on disk
  'packages/server/test/runtime.restart.test.ts',
  'packages/server/test/scheduler.test.ts',
  'packages/server/test/server-key-setting.test.ts',
];

/**
 * Suites whose games run on real room deadlines (a submit window, a council stage, an action
 * timeout, the scheduler's timers): their actors must act inside those windows, so they run alone,
 * one file at a time, after the others (two side by side once starved debate.e2e past its submit
 * window on a loaded machine). The rest wait on nothing but their own work and run two at a time;
 * a new suite on real deadlines belongs in this list.
 */
export const E2E_ON_DEADLINES = [
  'packages/protocols/debate/test/cli/debate.e2e.test.ts',
  'packages/protocols/debate/test/cli/demo.e2e.test.ts',
  'packages/protocols/debate/test/server/drivers.debate.test.ts',
  'packages/protocols/council/test/server/drivers.council.test.ts',
  'packages/server/test/modules.test.ts',
  'packages/protocols/poker/test/server/poker-sim.test.ts',
  'packages/server/test/scheduler.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
    // Safety limits against a hang, not budgets: CI's machine may be busy (a spawned-CLI suite took
    // 240 s at load 12 on two cores). Waits inside tests use PATIENCE_MS, shorter, so theirs is the message.
    testTimeout: 600_000,
    // expect.poll waits for a condition, never times it: its 1-s default failed on a busy machine.
    expect: { poll: { timeout: PATIENCE_MS } },
    hookTimeout: 600_000,
    // In-process PGlite stores (in memory or a new data directory) start from an initialised template.
    setupFiles: ['test/pglite-template.ts'],
    // Made once, before the workers start (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    env: { DB8_TEST_PREBUILT_CLI: '1' },
    projects: [
      {
        // Spawned CLIs, whole servers, journals, property runs: two files at a time keep both cores
        // busy while one waits on a child process or the disk.
        extends: true,
        test: {
          name: 'e2e',
          include: E2E_SUITES,
          exclude: ['**/node_modules/**', '**/*.int.test.ts', ...E2E_ON_DEADLINES],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Then the games on real deadlines, one file at a time with nothing beside them.
        extends: true,
        test: {
          name: 'e2e-deadlines',
          include: E2E_ON_DEADLINES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
