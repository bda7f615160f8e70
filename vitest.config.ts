import { defineConfig } from 'vitest/config';

// Unit and conformance tests: no external services. Integration suites (real Postgres, NATS,
// Chromium) live in *.int.test.ts and run with vitest.integration.config.ts.
export default defineConfig({
  test: {
    include: ['packages/**/test/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
