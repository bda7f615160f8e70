// `db8 start`'s start-up path, structurally (no timings; the bench times it): the installed entry
// runs the CLI's prebuilt bundle, not the TypeScript through tsx, and the server start does not
// load what only some requests or settings need (the model SDKs, the NATS client). Each start
// records every module it loads through a module-load hook (node --import), on an existing data
// directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '@db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prebuiltCli } from '../../../test/cli-bundle.ts';
import { SOURCE_BIN } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-start-path-'));
const dataDir = join(dir, 'data');
const HOOKS = join(dir, 'hooks.mjs');
const REGISTER = join(dir, 'register.mjs');

// Loader hooks run on their own thread: they append each loaded URL to the file the env names.
writeFileSync(
  HOOKS,
  [
    "import { appendFileSync } from 'node:fs';",
    'export async function load(url, context, next) {',
    "  appendFileSync(process.env.DB8_TEST_LOADED, url + '\\n');",
    '  return next(url, context);',
    '}',
  ].join('\n'),
);
writeFileSync(
  REGISTER,
  `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(HOOKS).href)});\n`,
);

/** Start `db8 start` through the installed entry, wait for /healthz, stop it; the loaded URLs. */
async function loadedByStart(name: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const loaded = join(dir, `${name}.loaded`);
  writeFileSync(loaded, '');
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(REGISTER).href, SOURCE_BIN, 'start', '--port', '0', '--data-dir', dataDir],
    { env: { ...process.env, DB8_TEST_LOADED: loaded, DATABASE_URL: '', NATS_URL: '', ...env } },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    let url: string | undefined;
    while (!url) {
      if (child.exitCode !== null) throw new Error(`db8 start exited:\n${out}`);
      url = /db8 listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
  return readFileSync(loaded, 'utf8').split('\n').filter(Boolean);
}

// Loaded on first use only: the model SDKs (a model call) and the NATS client (NATS_URL).
const LAZY = /node_modules\/(openai|@anthropic-ai\/sdk|@opentelemetry\/api|nats)\//;

beforeAll(async () => {
  // An existing data directory (from the test template: no initdb in the children).
  await (await openStore({ env: false, dataDir })).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('db8 start: the start-up path', () => {
  it('the installed entry runs the prebuilt bundle of the current sources, not tsx', async () => {
    const bundle = await prebuiltCli(); // what `db8 start` builds when absent
    const urls = await loadedByStart('bundle');
    expect(urls).toContain(pathToFileURL(bundle).href);
    expect(urls.filter((u) => u.includes('/node_modules/tsx/'))).toEqual([]);
    expect(urls.filter((u) => /\.tsx?$/.test(u))).toEqual([]);
  });

  it('the server starts without loading the model SDKs or the NATS client (loaded on first use)', async () => {
    // The sources, module by module, so every package the start imports shows up by name.
    const urls = await loadedByStart('sources', { DB8_CLI_SOURCES: '1' });
    expect(urls.some((u) => u.endsWith('/packages/server/src/main.ts'))).toBe(true);
    expect(urls.filter((u) => LAZY.test(u))).toEqual([]);
  });
});
