// One prebuilt db8 CLI for the spawned-CLI tests: the CLI bundled with esbuild, so a spawn starts
// plain JavaScript instead of transforming TypeScript through tsx in every child. It is the bundle
// `db8 start` builds and packages/app/bin/db8.js runs when it matches the sources
// (packages/app/bin/bundle.mjs, cached in node_modules/.cache/db8-cli/<hash of the sources>/).
// Built on first use by packages/cli/test/helpers.ts when DB8_TEST_PREBUILT_CLI is set
// (vitest.config.ts and vitest.e2e.config.ts set it).
export { prebuiltCli, prebuiltScript } from '../packages/app/bin/bundle.mjs';
