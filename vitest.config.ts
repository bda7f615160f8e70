import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/patience.ts';
import { E2E_SUITES } from './vitest.e2e.config.ts';

// `npm test`: unit and conformance tests, no outside services: about 200 files, two and a half minutes
// on two quiet cores (three while each server file loaded its own module graph), five to seven while
// other work shares them (then twice that with a graph per file: importing took the difference).
// Integration suites (real Postgres, NATS, Chromium) are *.int.test.ts and run with
// vitest.integration.config.ts; the slow end-to-end suites are listed in vitest.e2e.config.ts.
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/*.int.test.ts', ...E2E_SUITES],
    // Safety limits against a hang, not budgets: nothing in the fast suite may depend on how fast
    // the machine is (a busy laptop runs ten times slower). Waits inside tests use PATIENCE_MS
    // (test/patience.ts), shorter than these so their message is the one reported.
    testTimeout: 300_000,
    // expect.poll waits for a condition, never times it: its 1-s default failed on a busy machine.
    expect: { poll: { timeout: PATIENCE_MS } },
    hookTimeout: 300_000,
    // vitest runs one worker per core less one: on two cores that is one, and a core idles while
    // it imports. Two keep both busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The spawned-CLI suites share one prebuilt CLI (packages/cli/test/helpers.ts, test/cli-bundle.ts).
    env: { DB8_TEST_PREBUILT_CLI: '1' },
    // In-memory PGlite stores start from an initialised template instead of running initdb.
    setupFiles: ['test/pglite-template.ts'],
    // The templates themselves are made once, before the workers start.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        // Pure code (no store, no server, no process state): one module graph per worker, not per file.
        extends: true,
        test: {
          name: 'pure',
          include: [
            'packages/core/test/**/*.test.ts',
            'packages/protocols/*/test/rules/**/*.test.ts',
            'packages/protocols/*/test/web/**/*.test.ts',
            'packages/protocols/*/test/agent/**/*.test.ts',
            'packages/protocols/*/test/client/**/*.test.ts',
            'packages/sdk/test/**/*.test.ts',
            'packages/web/test/**/*.test.ts',
            'packages/agents/test/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          isolate: false,
        },
      },
      {
        // Server and CLI suites share a worker's module graph too: loading it afresh for each file was
        // about half of the run. So a file leaves nothing behind: it closes what it opens (the shared
        // store forgets itself when closed, app-harness.ts), restores the env it sets and real timers.
        extends: true,
        test: {
          name: 'node',
          include: [
            'packages/server/test/**/*.test.ts',
            'packages/cli/test/**/*.test.ts',
            'packages/protocols/*/test/server/**/*.test.ts',
            'packages/protocols/*/test/cli/**/*.test.ts',
            'packages/app/test/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          isolate: false,
        },
      },
    ],
  },
});
