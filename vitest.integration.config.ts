import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/patience.ts';

/**
 * Suites that wait on nothing but their own work and PATIENCE_MS-bounded conditions: no browser
 * (Playwright's waits are 30 s each), no real window, lapse, lease or sandbox time limit, no killed
 * process. Each uses its own Postgres schema, NATS stream and subjects, and ports the OS picks, so
 * these run two at a time; every other suite then runs alone, one file at a time.
 */
export const INTEGRATION_IN_PAIRS = [
  'packages/server/test/store.int.test.ts',
  'packages/server/test/main.store.int.test.ts',
  'packages/server/test/conflict-retry.int.test.ts',
  'packages/server/test/runtime.tail.int.test.ts',
  'packages/protocols/deliberation/test/server/deliberation-storage.int.test.ts',
  'packages/protocols/question/test/server/swarm.limits.int.test.ts',
  'packages/protocols/question/test/server/swarm.responder.int.test.ts',
  'packages/protocols/question/test/server/swarm.nats-cluster.int.test.ts',
  'packages/protocols/question/test/server/swarm.profile.int.test.ts',
  'packages/protocols/question/test/server/swarm.mcp.int.test.ts',
  'packages/protocols/question/test/server/swarm.secretary.int.test.ts',
  'packages/protocols/question/test/server/swarm.irc-injection.int.test.ts',
];

// Suites that need the machine's services (PostgreSQL, NATS, headless Chromium). CI starts the
// services when they are down; these suites fail, never skip, when a service is missing.
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    // Safety limits against a hang, not budgets: CI's machine may be busy (a spawned-CLI suite took
    // 240 s at load 12 on two cores). Waits inside tests use PATIENCE_MS, shorter, so theirs is the message.
    testTimeout: 600_000,
    // expect.poll waits for a condition, never times it: its 1-s default failed on a busy machine.
    expect: { poll: { timeout: PATIENCE_MS } },
    hookTimeout: 600_000,
    // In-process PGlite stores (in memory or a new data directory) start from an initialised template.
    setupFiles: ['test/pglite-template.ts'],
    // Made once, before the workers start (test/global-setup.ts); the browser suites share one build
    // of the web app per run (test/web-dist-setup.ts).
    globalSetup: ['test/global-setup.ts', 'test/web-dist-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'int-pairs',
          include: INTEGRATION_IN_PAIRS,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['packages/**/test/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', ...INTEGRATION_IN_PAIRS],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
