import {
  adminLogin,
  buildWeb,
  client,
  cspViolations,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// A person holding a deliberation seat plays it from the room page (SeatTurn.tsx) in headless
// Chromium against a real server: one remote proposer seat taken by invite, five scripted seats the
// server drives. The page offers only the turn the server's legal actions name, validates it with
// the protocol's schemas before sending, and shows the server's refusal word for word; what it
// sends lands in the room's log under the person's seat, and a refused send writes nothing.

let env: Env;
let admin = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  admin = await adminLogin(env, page);
  await page.context().close();
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`deliberation-seat-${ctx.task.name}`);
  expect(cspViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await env?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: REST bodies are inspected freely by tests.
type Json = any;

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
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

const SCRIPTED = [
  { name: 'ben', role: 'critic', score: 9.1 },
  { name: 'cai', role: 'reviewer', score: 8.7 },
  { name: 'dee', role: 'optimizer', score: 8.6 },
  { name: 'eli', role: 'architect', score: 8.2 },
  { name: 'fay', role: 'moderator', score: 7.9 },
].map((p) => ({ ...p, provider: 'scripted' }));

const TESTS = `import assert from 'node:assert/strict';
import { answer } from './solution.mjs';
export default { 'answer is 2': () => assert.equal(answer, 2) };`;

/** The person's action entries in the room's log, and their turns as the admin's view has them. */
async function ofPat(id: string) {
  const admin_ = client(env, admin);
  const entries = [];
  for await (const e of admin_.allEntries(id)) if (e.kind === 'action' && e.actor === 'pat') entries.push(e);
  const view = (await admin_.state(id)).view as {
    turns: { seat: string; seq: number; action: Json }[];
  };
  return { entries, turns: view.turns.filter((t) => t.seat === 'pat') };
}

describe('a person plays a deliberation seat from the room page', () => {
  it('plans, proposes, critiques and reviews through the page; a refused proposal shows why and writes nothing', async () => {
    const { id } = await api('POST', '/v1/debates', {
      topic: 'Export answer, the checksum of the quarterly ledger',
      participants: [{ name: 'pat', role: 'proposer', provider: 'remote', score: 9.5 }, ...SCRIPTED],
      coordination_protocol: 'dpde',
      max_rounds: 1,
      // The person is given time: no step closes on them while the test types.
      phase_timeout: 900,
      timeout: 3600,
      enable_dehallucination: false,
      enable_self_evolvement: false,
      enable_adversarial: false,
      reflexion_attempts: 0,
      task: { kind: 'code', language: 'javascript', confidence: 0.95, tests: TESTS },
    });
    const { invite } = await client(env, admin).createInvite(id, { seat: 'pat' });
    const page = await newPage(env);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${env.url}/rooms/${id}/join#invite=${invite}`);
    await page.getByRole('button', { name: 'Accept invite' }).click();
    await page.waitForURL(`${env.url}/rooms/${id}`);

    // The plan step: the form the server's legal `plan` asks for, with the step's deadline.
    const panel = page.getByTestId('delib-turn');
    const plan = panel.getByTestId('delib-plan-form');
    await plan.waitFor({ timeout: 60_000 });
    await panel.getByTestId('countdown').waitFor();
    expect(((await client(env, admin).state(id)) as Json).view.waitingFor).toContain('pat');
    // An empty description is the schema's to refuse: the button stays disabled, nothing is sent.
    const sendPlan = plan.getByRole('button', { name: 'Send plan' });
    expect(await sendPlan.isDisabled()).toBe(true);
    await plan.getByLabel('id').fill('ledger');
    await plan.getByLabel('description').fill('Read the ledger and export its checksum as answer');
    await expect.poll(() => sendPlan.isDisabled()).toBe(false);
    await shot(page, 'deliberation-seat-plan');
    // A double click sends once: no second plan, no refusal of a second one.
    await sendPlan.dblclick();
    await panel.getByTestId('delib-turn-sent').filter({ hasText: 'plan' }).waitFor();
    const planned = await until('the plan in the log', async () => {
      const p = await ofPat(id);
      return p.turns.length === 1 ? p : null;
    });
    expect(planned.entries).toHaveLength(1);
    expect(await panel.getByTestId('delib-turn-error').count()).toBe(0);
    expect(planned.turns[0]!.action).toMatchObject({
      type: 'plan',
      tasks: [{ id: 'ledger', description: 'Read the ledger and export its checksum as answer' }],
    });

    // The work step: the proposal form, offering the plan's task that is ready for this seat.
    const propose = panel.getByTestId('delib-propose-form');
    await propose.waitFor({ timeout: 60_000 });
    const task = propose.getByRole('checkbox');
    expect(await task.count()).toBe(1);
    expect(await task.isChecked()).toBe(true);
    await propose.getByLabel('proposal').fill('Export the checksum as the constant answer.');
    await propose.getByLabel('confidence').fill('0.8');
    // A code task sent without code: the server refuses it, the page says why, the log has nothing.
    await propose.getByRole('button', { name: 'Send proposal' }).click();
    const refused = panel.getByTestId('delib-turn-error');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('MISSING_CODE: a code task needs code in this draft');
    await shot(page, 'deliberation-seat-refused');
    const after = await ofPat(id);
    expect(after.entries).toHaveLength(1);
    expect(after.turns).toHaveLength(1);
    // With the code it goes through, under the seat, settling the task.
    await propose.getByLabel('code (javascript)').fill('export const answer = 2;\n');
    await propose.getByRole('button', { name: 'Send proposal' }).click();
    await panel.getByTestId('delib-turn-sent').filter({ hasText: 'propose' }).waitFor();
    expect(await panel.getByTestId('delib-turn-error').count()).toBe(0);
    const proposed = await until('the proposal in the log', async () => {
      const p = await ofPat(id);
      return p.turns.length === 2 ? p : null;
    });
    expect(proposed.entries).toHaveLength(2);
    expect(proposed.entries.map((e) => e.seq)).toEqual(proposed.turns.map((t) => t.seq));
    expect(proposed.turns[1]!.action).toMatchObject({
      type: 'propose',
      content: 'Export the checksum as the constant answer.',
      confidence: 0.8,
      taskIds: ['pat/ledger'],
      code: { language: 'javascript', source: 'export const answer = 2;\n' },
    });
    // The critique step: a critique of a proposal the seat can see, then the review step's review.
    const critique = panel.getByTestId('delib-critique-form');
    await critique.waitFor({ timeout: 60_000 });
    const candidates = await critique.getByLabel('proposal').locator('option').allTextContents();
    expect(candidates).toContain('ben');
    await critique.getByLabel('proposal').selectOption('ben');
    await critique.getByLabel('critique').fill('The ledger may be empty: say what answer is then.');
    await critique.getByLabel('issue').fill('empty ledger');
    await critique.getByLabel('severity').selectOption('high');
    await shot(page, 'deliberation-seat-critique');
    await critique.getByRole('button', { name: 'Send critique' }).click();
    await panel.getByTestId('delib-turn-sent').filter({ hasText: 'critique' }).waitFor();
    const review = panel.getByTestId('delib-review-form');
    await review.waitFor({ timeout: 60_000 });
    await review.getByLabel('proposal').selectOption('ben');
    await review.getByLabel('review').fill('Sound, once the empty ledger is handled.');
    await review.getByLabel('verdict').selectOption('approve');
    await review.getByLabel('score').fill('0.9');
    await review.getByRole('button', { name: 'Send review' }).click();
    await panel.getByTestId('delib-turn-sent').filter({ hasText: 'review' }).waitFor();
    const judged = await until('the critique and review in the log', async () => {
      const p = await ofPat(id);
      return p.turns.length === 4 ? p : null;
    });
    expect(judged.entries).toHaveLength(4);
    expect(judged.turns[2]!.action).toMatchObject({
      type: 'critique',
      target: 'ben',
      points: [{ issue: 'empty ledger', severity: 'high' }],
      content: 'The ledger may be empty: say what answer is then.',
    });
    expect(judged.turns[3]!.action).toMatchObject({
      type: 'review',
      target: 'ben',
      verdict: 'approve',
      score: 0.9,
    });
    // Past those the seat has no form: the panel says why (another seat's turn, or a step this page
    // has no form for).
    await panel.getByTestId('delib-turn-none').waitFor({ timeout: 60_000 });
    await shot(page, 'deliberation-seat-waiting');
    await page.setViewportSize({ width: 390, height: 860 });
    await shot(page, 'deliberation-seat-waiting-390');
    await page.context().close();
  }, 300_000);
});
