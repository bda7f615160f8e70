import { defineConfig } from 'vitest/config';

// End-to-end suites: the CLI spawned as a user runs it (packages/cli/bin/db8.js, TypeScript through
// tsx) against a real server or a stored data directory, whole servers started on disk, and long
// scripted or simulated games. They need no outside services but take minutes, so `npm test` leaves
// them out; `npm run test:e2e` runs them, and .ci/run runs both. A suite named *.e2e.test.ts lands
// here by itself; the others are listed.
export const E2E_SUITES = [
  'packages/**/test/**/*.e2e.test.ts',
  // the CLI spawned against a server or a data directory (PGlite starts in every child)
  'packages/cli/test/council.test.ts',
  'packages/cli/test/journal.test.ts',
  'packages/cli/test/poker.test.ts',
  'packages/cli/test/poker-journal.test.ts',
  'packages/cli/test/replay.test.ts',
  'packages/cli/test/replay-snapshot.test.ts',
  'packages/cli/test/room.test.ts',
  // whole servers (startServer on a data directory, two nodes) and whole games
  'packages/server/test/app.main.test.ts',
  'packages/server/test/drivers.council.test.ts',
  'packages/server/test/drivers.debate.test.ts',
  'packages/server/test/main.links.test.ts',
  'packages/server/test/main.store.test.ts',
  'packages/server/test/modules.test.ts',
  'packages/server/test/poker-sim.test.ts',
  'packages/server/test/server-key-setting.test.ts',
];

export default defineConfig({
  test: {
    include: E2E_SUITES,
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
