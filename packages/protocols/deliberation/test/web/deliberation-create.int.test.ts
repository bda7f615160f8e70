import {
  adminLogin,
  buildWeb,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// A deliberation made from the lobby's own form (not the generated one) in headless Chromium, and
// the finished room showing its answer: the winning proposal, the summary, the votes, the dissents
// and every turn in full, checked against the REST view of the same room. A code task whose tests
// never pass, made from the same form, ends without a winner and says why. Screenshots:
// deliberation-create-*.png at 1366 and 390 px wide.

let env: Env;
let adminSession = '';
let admin = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  admin = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`deliberation-create-${ctx.task.name}`);
});

afterAll(async () => {
  await env?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: REST bodies are inspected freely by tests.
type Json = any;

async function api(path: string): Promise<Json> {
  const res = await fetch(`${env.url}${path}`, { headers: { authorization: `Bearer ${admin}` } });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const over = (s: { status: string }) => ['completed', 'failed', 'cancelled'].includes(s.status);

async function lobby(width: number, height: number): Promise<Page> {
  const page = await newPage(env);
  await page.setViewportSize({ width, height });
  await page.addInitScript((s) => localStorage.setItem('db8.session', s), adminSession);
  await page.goto(`${env.url}/`);
  await page.locator('#cr-protocol').selectOption('deliberation');
  await page.locator('#delib-topic').waitFor();
  return page;
}

async function created(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/\/rooms\/[^/?]+$/);
  const id = decodeURIComponent(page.url().split('/rooms/')[1]!);
  await until('the session to end', async () => (over(await api(`/v1/debates/${id}/status`)) ? true : null));
  return id;
}

describe('deliberation create form and answer', () => {
  it('makes a text deliberation from the form; the finished room shows the answer and every turn', async () => {
    const page = await lobby(1366, 900);
    // The task is required: the schema says so on the field, not as `sessionId: Invalid input`.
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.getByTestId('error-delib-topic').waitFor();
    // Code-only fields appear only for a code task.
    expect(await page.locator('#delib-tests').count()).toBe(0);
    await page.locator('#delib-topic').fill('Pick a cache eviction policy for the session store');
    await page.locator('#delib-confidence').fill('0.95');
    await page.locator('#delib-rounds').fill('1');
    await page.locator('#delib-consensus').fill('0.5');
    await page.locator('#delib-topology').selectOption('star');
    await page.locator('#delib-coordination').selectOption('cpde');
    await page.locator('#delib-voting').selectOption('borda');
    await page.getByRole('button', { name: 'Add a seat' }).click();
    await page.locator('#delib-seat-4-id').fill('redteam');
    await page.locator('#delib-seat-4-role').selectOption('red_team');
    // The driver picker follows the seats the form lists: its five and the operator (the gates' reviewer).
    const drivers = page.getByTestId('drivers').locator('.driver-row');
    await expect.poll(() => drivers.count()).toBe(6);
    expect(await page.locator('#drv-redteam').count()).toBe(1);
    await page.getByRole('button', { name: 'all scripted' }).click();
    await shot(page, 'deliberation-create-form');
    const id = await created(page);

    const details = await api(`/v1/debates/${id}`);
    const results = await api(`/v1/debates/${id}/results`);
    expect(results.status).toBe('completed');
    expect(results.voting_method).toBe('borda');
    expect(details.layout.kind).toBe('star');
    const turns = details.rounds.flatMap((r: { responses: unknown[] }) => r.responses) as {
      seq: number;
      seat: string;
      action: { type: string; content?: string };
    }[];
    expect(new Set(turns.map((t) => t.seat))).toEqual(
      new Set(['architect', 'critic', 'reviewer', 'optimizer', 'redteam']),
    );

    await page.getByTestId('delib-status').filter({ hasText: 'completed' }).waitFor();
    const answer = page.getByTestId('delib-answer');
    expect(await answer.getByTestId('delib-outcome').textContent()).toContain(results.winner);
    const o = results.outcome;
    const winning = turns.find((t) => t.seq === o.summarySeq)!;
    expect(await answer.getByTestId('delib-winning').locator('.delib-text').textContent()).toBe(
      winning.action.content,
    );
    expect(await answer.getByTestId('delib-summary').textContent()).toBe(o.summary);
    const votes = await answer
      .getByTestId('delib-votes')
      .locator('li')
      .evaluateAll((els) =>
        els.map((e) => [e.getAttribute('data-seat'), Number(e.getAttribute('data-votes'))]),
      );
    expect(Object.fromEntries(votes)).toEqual(o.voteBreakdown);
    expect(await answer.getByRole('link', { name: 'journal' }).getAttribute('href')).toBe(
      `/rooms/${encodeURIComponent(id)}/journal`,
    );
    // Every turn, each text whole (the journal's rows stop at ~160 characters).
    await page.getByTestId('delib-turns').locator('summary').click();
    const shown = page.getByTestId('delib-turn');
    expect(await shown.count()).toBe(turns.length);
    const longest = turns
      .filter((t) => typeof t.action.content === 'string')
      .sort((a, b) => b.action.content!.length - a.action.content!.length)[0]!;
    expect(
      await page.locator(`[data-testid="delib-turn"][data-seq="${longest.seq}"] .delib-text`).textContent(),
    ).toBe(longest.action.content);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'deliberation-create-answer');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'deliberation-create-answer-390');
    await page.context().close();
  }, 240_000);

  it('a code task from the form whose tests never pass ends without a winner, and the page says so', async () => {
    const page = await lobby(390, 844);
    await page.locator('#delib-topic').fill('Export answer, the number of the beast');
    await page.locator('#delib-kind').selectOption('code');
    await page.locator('#delib-language').fill('javascript');
    await page
      .locator('#delib-tests')
      .fill(
        "import assert from 'node:assert/strict';\nimport { answer } from './solution.mjs';\nexport default { 'answer is never this': () => assert.equal(answer, 'never') };",
      );
    await page.locator('#delib-confidence').fill('0.95');
    await page.locator('#delib-rounds').fill('1');
    await page.getByTestId('delib-gates-form').getByLabel('review', { exact: true }).check();
    await page.locator('#delib-gate-on-timeout').selectOption('approve');
    await page.locator('#delib-gate-timeout').fill('1');
    await page.getByRole('button', { name: 'all scripted' }).click();
    await shot(page, 'deliberation-create-form-code-390');
    const id = await created(page);
    const results = await api(`/v1/debates/${id}/results`);
    // The form's gate was set: it opened after review and its timeout approved it.
    const gates = (await api(`/v1/debates/${id}/gates`)).gates;
    expect(gates.map((g: { phase: string }) => g.phase)).toEqual(['review']);
    expect(results.status).toBe('failed');
    expect(results.winner).toBeNull();
    expect(results.outcome.noPassingCode).toBe(true);
    expect(results.code_versions.length).toBeGreaterThan(0);
    await page.getByTestId('delib-status').filter({ hasText: 'failed' }).waitFor();
    const outcome = await page.getByTestId('delib-outcome').textContent();
    expect(outcome).toContain('no winner');
    expect(outcome).toContain('no code version passed its tests');
    expect(await page.getByTestId('delib-winning-code').count()).toBe(0);
    // Each version's analysed quality beside its pass rate, as REST has it (server/quality.ts).
    const measured = await until('every version measured and analysed', async () => {
      const r = await api(`/v1/debates/${id}/results`);
      return r.code_versions.every((v: { quality_score: number | null }) => v.quality_score !== null)
        ? (r.code_versions as { version: number; quality_score: number; metrics: { cyclomatic: number } }[])
        : null;
    });
    const rows = page.getByTestId('delib-version');
    await expect.poll(() => rows.count()).toBe(measured.length);
    for (const v of measured) {
      const q = page.locator(
        `[data-testid="delib-version"][data-version="${v.version}"] [data-testid="delib-quality"]`,
      );
      await expect.poll(() => q.getAttribute('data-quality')).toBe(String(v.quality_score));
      expect(await q.textContent()).toContain(`cyclomatic ${v.metrics.cyclomatic}`);
    }
    await shot(page, 'deliberation-create-no-passing-390');
    await page.context().close();
  }, 240_000);
});
