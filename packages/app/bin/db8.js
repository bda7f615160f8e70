#!/usr/bin/env node
// The CLI is written in TypeScript. It runs from its esbuild bundle (bin/bundle.mjs) when one
// matches the sources: about 3 s less to start than the sources through tsx's loader. `db8 start`
// builds that bundle when absent (a few seconds); other commands run the sources through tsx
// then, so a fresh clone or an edited tree needs no build step. DB8_CLI_SOURCES=1 always runs
// the sources.
import { pathToFileURL } from 'node:url';
import { cachedCli, keepInUse, prebuiltCli } from './bundle.mjs';

async function bundled() {
  if (process.env.DB8_CLI_SOURCES === '1') return null;
  try {
    return cachedCli() ?? (process.argv[2] === 'start' ? await prebuiltCli() : null);
  } catch {
    return null; // no esbuild (a production install) or no writable cache: the sources still run
  }
}

const entry = await bundled();
if (entry) {
  if (process.argv[2] === 'start') keepInUse(entry);
  // The bundle's entry runs main() and sets process.exitCode itself.
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
