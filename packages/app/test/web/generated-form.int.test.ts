import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newPage, offTheSide, shootOpenPages, shot } from './browser.ts';

// The generated create form (packages/web components/create/GeneratedForm.tsx), the lobby's
// fallback for a protocol registered without a form of its own, in headless Chromium: a test-only
// protocol (packages/web/test/fixtures/form-protocol.ts) installed with no web module, its page
// bundled by esbuild. Typed inputs for each kind of field, the zod schema's messages per field as
// you type, JSON parts checked too, and what is submitted. Screenshots: generated-form-*.png.

const PAGE = fileURLToPath(new URL('../../../web/test/fixtures/generated-form-page.tsx', import.meta.url));
let dir = '';
let url = '';
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'db8-generated-form-'));
  await build({
    entryPoints: [PAGE],
    bundle: true,
    format: 'iife',
    jsx: 'automatic',
    outdir: dir,
    entryNames: 'page',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<link rel="stylesheet" href="page.css"></head><body><div id="root"></div><script src="page.js"></script></body></html>',
  );
  url = pathToFileURL(join(dir, 'index.html')).href;
  browser = await launchChromium();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`generated-form-${ctx.task.name}`);
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(width: number, height: number): Promise<Page> {
  const page = await newPage({ browser });
  await page.setViewportSize({ width, height });
  await page.goto(url);
  await page.getByTestId('generated-form').waitFor();
  return page;
}

const errorOf = (page: Page, id: string) => page.getByTestId(`error-${id}`);
const submitted = (page: Page) => page.evaluate(() => window.submitted);

describe('the generated create form', () => {
  it('draws typed inputs from the zod schema, starting from the preset and the defaults', async () => {
    const page = await open(1366, 900);
    await expect(page.locator('#cfg-name').inputValue()).resolves.toBe('Friday game');
    await expect(page.locator('#cfg-name').getAttribute('type')).resolves.toBe('text');
    await expect(page.locator('#cfg-players').getAttribute('type')).resolves.toBe('number');
    await expect(page.locator('#cfg-players').inputValue()).resolves.toBe('4');
    await expect(page.locator('#cfg-stake').inputValue()).resolves.toBe('1.5');
    await expect(page.locator('#cfg-limit').inputValue()).resolves.toBe('');
    await expect(page.locator('#cfg-ranked').isChecked()).resolves.toBe(false);
    await expect(page.locator('#cfg-mode').inputValue()).resolves.toBe('slow');
    await expect(page.locator('#cfg-mode option').allTextContents()).resolves.toEqual(['quick', 'slow']);
    // A nested object is a fieldset of its own inputs; a list of text one input per item.
    await expect(page.getByTestId('cfg-timing').locator('#cfg-timing-grace_ms').inputValue()).resolves.toBe(
      '0',
    );
    await expect(page.locator('#cfg-tags-0').inputValue()).resolves.toBe('casual');
    // Only what it cannot draw is JSON: the record and the union of objects.
    await expect(page.locator('textarea').count()).resolves.toBe(2);
    expect(JSON.parse(await page.locator('textarea#cfg-scoring').inputValue())).toEqual({
      kind: 'points',
      per_win: 3,
    });
    await expect(page.getByText('what the lobby shows').count()).resolves.toBe(1);
    await shot(page, 'generated-form-1366');
    await page.context().close();
  });

  it('shows the schema’s message under each field as you type, and submits the typed config', async () => {
    const page = await open(1366, 900);
    await page.locator('#cfg-name').fill('');
    await errorOf(page, 'cfg-name').waitFor();
    await page.locator('#cfg-name').fill('Saturday game');
    await errorOf(page, 'cfg-name').waitFor({ state: 'detached' });

    await page.locator('#cfg-players').fill('9');
    await expect(errorOf(page, 'cfg-players').textContent()).resolves.toMatch(/8/);
    await page.locator('#cfg-players').fill('3');
    await errorOf(page, 'cfg-players').waitFor({ state: 'detached' });

    // Lists: an empty item is caught at its own place, one too many on the list.
    const tags = page.getByTestId('cfg-tags');
    await tags.getByRole('button', { name: 'Add item' }).click();
    await errorOf(page, 'cfg-tags-1').waitFor();
    await page.locator('#cfg-tags-1').fill('league');
    await errorOf(page, 'cfg-tags-1').waitFor({ state: 'detached' });
    await tags.getByRole('button', { name: 'Add item' }).click();
    await page.locator('#cfg-tags-2').fill('open');
    await tags.getByRole('button', { name: 'Add item' }).click();
    await page.locator('#cfg-tags-3').fill('late');
    await errorOf(page, 'cfg-tags').waitFor();
    await tags.getByRole('button', { name: 'Remove item 4' }).click();
    await errorOf(page, 'cfg-tags').waitFor({ state: 'detached' });
    await page.getByTestId('cfg-odds').getByRole('button', { name: 'Add item' }).click();
    await page.locator('#cfg-odds-0').fill('2.5');

    // JSON parts: text that does not parse, then a value the schema refuses, each said at its field.
    await page.locator('#cfg-extras').fill('{"colour": ');
    await expect(errorOf(page, 'cfg-extras').textContent()).resolves.toMatch(/^not valid JSON/);
    await page.locator('#cfg-extras').fill('{"colour": "green"}');
    await errorOf(page, 'cfg-extras').waitFor({ state: 'detached' });
    await page.locator('#cfg-scoring').fill('{"kind": "elo"}');
    await errorOf(page, 'cfg-scoring').waitFor();
    await page.locator('#cfg-scoring').fill('{"kind": "elo", "k": 24}');
    await errorOf(page, 'cfg-scoring').waitFor({ state: 'detached' });

    await page.locator('#cfg-ranked').check();
    await page.locator('#cfg-mode').selectOption('quick');
    await page.locator('#cfg-limit').fill('10');
    // The nested required field left empty stops the submit, with its message.
    await page.getByRole('button', { name: 'Create room' }).click();
    await expect(errorOf(page, 'cfg-timing-turn_ms').textContent()).resolves.toBe('required');
    await shot(page, 'generated-form-errors');
    expect(await submitted(page)).toEqual([]);
    await page.locator('#cfg-timing-turn_ms').fill('500');
    await errorOf(page, 'cfg-timing-turn_ms').waitFor({ state: 'detached' });
    // The footer (the lobby's seat picker) reads the live config.
    await expect.poll(() => page.getByTestId('live-config').textContent()).toContain('"turn_ms":500');
    await page.getByRole('button', { name: 'Create room' }).click();
    await expect
      .poll(() => submitted(page))
      .toEqual([
        {
          name: 'Saturday game',
          players: 3,
          stake: 1.5,
          limit: 10,
          ranked: true,
          mode: 'quick',
          timing: { turn_ms: 500, grace_ms: 0 },
          tags: ['casual', 'league', 'open'],
          odds: [2.5],
          extras: { colour: 'green' },
          scoring: { kind: 'elo', k: 24 },
        },
      ]);
    await page.context().close();
  });

  it('fits a 390 px phone', async () => {
    const page = await open(390, 844);
    await page.getByRole('button', { name: 'Create room' }).click();
    await errorOf(page, 'cfg-timing-turn_ms').waitFor();
    await shot(page, 'generated-form-390');
    expect(await offTheSide(page)).toEqual([]);
    await page.context().close();
  });
});
