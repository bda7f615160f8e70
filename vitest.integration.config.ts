import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/patience.ts';

// Suites that need the machine's services (PostgreSQL, NATS, headless Chromium). CI starts the
// services when they are down; these suites fail, never skip, when a service is missing.
export default defineConfig({
  test: {
    include: ['packages/**/test/**/*.int.test.ts'],
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
    fileParallelism: false,
  },
});
