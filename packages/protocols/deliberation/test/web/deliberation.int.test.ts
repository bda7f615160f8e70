import { join } from 'node:path';
import {
  adminLogin,
  buildWeb,
  client,
  cspViolations,
  type Env,
  newPage,
  SCREENS,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Deliberation rooms in headless Chromium against a real server running scripted deliberations
// (POST /v1/debates, six scripted seats). The page draws the topology as a graph of who spoke to
// whom, the phase timeline and the consensus bars; a reviewer who holds the operator seat (a person
// invited to it) approves the gate from the page; a code task's versions show their sandbox-measured
// pass rate rising and their diffs; the lessons page finds the finished session's lesson with the
// matched words highlighted. Everything the page shows is checked against the REST view of the
// same room. Screenshots: deliberation-*.png at 1280 and 390 px wide (see browser.ts).

let env: Env;
let admin = '';
let adminSession = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  admin = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`deliberation-${ctx.task.name}`);
  // The charts (recharts) and the graph draw under the strict policy: no inline style or script.
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

const SIX = [
  // A long id: the graph labels it in full (it once cut ids to six characters).
  { name: 'architect-ana', role: 'architect', score: 9.5 },
  { name: 'ben', role: 'critic', score: 9.1 },
  { name: 'cai', role: 'reviewer', score: 8.7 },
  { name: 'dee', role: 'optimizer', score: 8.6 },
  { name: 'eli', role: 'red_team', score: 8.2 },
  { name: 'fay', role: 'moderator', score: 7.9 },
].map((p) => ({ ...p, provider: 'scripted' }));

const over = (s: { status: string }) => ['completed', 'failed', 'cancelled'].includes(s.status);

async function adminPage(width = 1280): Promise<Page> {
  const page = await newPage(env);
  await page.setViewportSize({ width, height: 860 });
  await page.addInitScript((s) => localStorage.setItem('db8.session', s), adminSession);
  return page;
}

/** Every edge and node the page drew, read in one go. */
function drawn(page: Page) {
  return page.evaluate(() => ({
    kind: document.querySelector('[data-testid="delib-graph"]')?.getAttribute('data-kind') ?? '',
    nodes: [...document.querySelectorAll('[data-testid="delib-node"]')].map((n) => ({
      seat: n.getAttribute('data-seat') ?? '',
      turns: Number(n.getAttribute('data-turns')),
    })),
    edges: [...document.querySelectorAll('[data-testid="delib-edge"]')].map((e) => ({
      pair: [e.getAttribute('data-from') ?? '', e.getAttribute('data-to') ?? ''].sort().join('|'),
      weight: Number(e.getAttribute('data-weight')),
    })),
  }));
}

describe('deliberation room page', () => {
  it('draws each topology as a graph of who spoke to whom, with the timeline and consensus bars', async () => {
    const topologies = ['graph_mesh', 'star', 'chain', 'tree'] as const;
    const ids: Record<string, string> = {};
    for (const topology of topologies)
      ids[topology] = (
        await api('POST', '/v1/debates', {
          topic: `Design a rate limiter (${topology})`,
          participants: SIX,
          topology_type: topology,
          coordination_protocol: 'cpde',
          max_rounds: 2,
        })
      ).id;
    const page = await adminPage();
    for (const topology of topologies) {
      const id = ids[topology]!;
      await until(`${topology} to finish`, async () =>
        over(await api('GET', `/v1/debates/${id}/status`)) ? true : null,
      );
      const details = await api('GET', `/v1/debates/${id}`);
      const results = await api('GET', `/v1/debates/${id}/results`);
      const turns = details.rounds.flatMap((r: { responses: unknown[] }) => r.responses) as {
        seat: string;
        audience: string[];
      }[];
      await page.goto(`${env.url}/rooms/${id}`);
      await page.getByTestId('delib-status').filter({ hasText: results.status }).waitFor();
      const g = await drawn(page);
      expect(g.kind).toBe(topology);
      // One node per seat, and exactly the pairs the layout links (who sees whom, from REST).
      expect(g.nodes.map((n) => n.seat).sort()).toEqual(SIX.map((p) => p.name).sort());
      const layout = details.layout as {
        kind: string;
        order: string[];
        hub: string | null;
        parent: Record<string, string | null>;
      };
      const n = layout.order.length;
      expect(g.edges.length, topology).toBe(topology === 'graph_mesh' ? (n * (n - 1)) / 2 : n - 1);
      if (topology === 'star') for (const e of g.edges) expect(e.pair.split('|')).toContain(layout.hub);
      if (topology === 'tree')
        for (const e of g.edges) {
          const [a, b] = e.pair.split('|') as [string, string];
          expect(layout.parent[a] === b || layout.parent[b] === a).toBe(true);
        }
      // Weights: at least the turns read across each link; node sizes are the turns each seat made.
      for (const e of g.edges) {
        const [a, b] = e.pair.split('|');
        const reads = turns.filter(
          (t) => (t.seat === a && t.audience.includes(b!)) || (t.seat === b && t.audience.includes(a!)),
        ).length;
        expect(e.weight).toBeGreaterThanOrEqual(reads);
      }
      expect(g.edges.some((e) => e.weight > 0)).toBe(true);
      for (const node of g.nodes) expect(node.turns).toBe(turns.filter((t) => t.seat === node.seat).length);
      // The timeline: a row per round played, a cell per phase showing its consensus.
      const rows = page.getByTestId('delib-timeline').locator('tbody tr');
      expect(await rows.count()).toBe(details.current_round);
      expect(await rows.first().locator('td').count()).toBe(8);
      // Consensus per round (recharts, laid out once its box is measured): a bar per round outcome,
      // each labelled with its confidence.
      const chart = page.getByTestId('delib-consensus');
      await expect.poll(() => chart.locator('.recharts-bar-rectangle').count()).toBe(results.rounds.length);
      const first = results.rounds[0];
      expect(await chart.locator('text.bar-value').first().textContent()).toContain(
        `${Math.round(first.consensus * 100)}%`,
      );
      await shot(page, `deliberation-graph-${topology}`);
    }
    await page.setViewportSize({ width: 390, height: 860 });
    await page.goto(`${env.url}/rooms/${ids.star}`);
    await page.getByTestId('delib-graph').waitFor();
    await shot(page, 'deliberation-graph-star-390');
    // Every label whole and inside the drawing, on a phone too.
    const labels = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="delib-graph"]')!.getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="delib-node"]')].flatMap((n) =>
        [...n.querySelectorAll('text.node-id, text.node-role')].map((t) => {
          const r = t.getBoundingClientRect();
          return {
            seat: n.getAttribute('data-seat'),
            text: t.textContent,
            inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5,
          };
        }),
      );
    });
    expect(
      labels
        .filter((l) => l.text === l.seat)
        .map((l) => l.seat)
        .sort(),
    ).toEqual(SIX.map((p) => p.name).sort());
    expect(labels.filter((l) => !l.inside)).toEqual([]);
    await page
      .getByTestId('delib-graph')
      .screenshot({ path: join(SCREENS, 'deliberation-graph-star-390-detail.png') });
    await page.context().close();
  }, 300_000);

  it('the chain graph points each link from the seat that passes its turn to the next', async () => {
    const { id } = await api('POST', '/v1/debates', {
      topic: 'Design a rate limiter (chain, directed)',
      participants: SIX,
      topology_type: 'chain',
      coordination_protocol: 'cpde',
      max_rounds: 1,
    });
    await until('the chain to finish', async () =>
      over(await api('GET', `/v1/debates/${id}/status`)) ? true : null,
    );
    const { layout } = (await api('GET', `/v1/debates/${id}`)) as { layout: { order: string[] } };
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      const page = await adminPage(width);
      await page.setViewportSize({ width, height });
      await page.goto(`${env.url}/rooms/${id}`);
      await page.getByTestId('delib-graph').waitFor();
      const edges = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="delib-edge"]')].map((e) => {
          const head = /^url\(#(.+)\)$/.exec(e.getAttribute('marker-end') ?? '')?.[1];
          const marker = head ? document.getElementById(head) : null;
          return {
            from: e.getAttribute('data-from'),
            to: e.getAttribute('data-to'),
            flow: e.getAttribute('data-flow'),
            // The head resolves to a drawn marker with a filled shape in it.
            head: marker?.tagName === 'marker' && (marker.querySelector('path')?.getTotalLength() ?? 0) > 0,
          };
        }),
      );
      // One arrow per link, each from a seat to the next one in the chain's order.
      expect(edges.map((e) => [e.from, e.to])).toEqual(
        layout.order.slice(1).map((to, i) => [layout.order[i], to]),
      );
      for (const e of edges) expect(e).toMatchObject({ flow: 'one-way', head: true });
      await page.getByTestId('delib-direction').waitFor();
      await shot(page, `deliberation-graph-chain-arrows-${width}`);
      await page
        .getByTestId('delib-graph')
        .screenshot({ path: join(SCREENS, `deliberation-graph-chain-arrows-${width}-detail.png`) });
      await page.context().close();
    }
  }, 300_000);

  it('a reviewer approves the gate from the page; code versions show diffs and a rising pass rate; lessons search finds it', async () => {
    // answer === round: round 1's drafts pass one test of two, round 2's pass both.
    const tests = `import assert from 'node:assert/strict';
import { answer } from './solution.mjs';
export default { 'answer is a number': () => assert.equal(typeof answer, 'number'), 'answer is 2': () => assert.equal(answer, 2) };`;
    const created = await api('POST', '/v1/debates', {
      topic: 'Export answer, the checksum of the quarterly ledger',
      participants: SIX,
      topology_type: 'graph_mesh',
      coordination_protocol: 'cpde',
      max_rounds: 2,
      early_stop: false,
      min_consensus: 0.5,
      enable_adversarial: false,
      enable_approval_gates: true,
      gate_phases: ['proposal'],
      reflexion_attempts: 0,
      task: { kind: 'code', language: 'javascript', confidence: 0.95, tests },
    });
    const id = created.id as string;

    // The reviewer: a person given the operator seat by invite, in a profile of their own.
    const { invite } = await client(env, admin).createInvite(id, { seat: 'operator' });
    const reviewer = await newPage(env);
    await reviewer.goto(`${env.url}/rooms/${id}/join#invite=${invite}`);
    await reviewer.getByRole('button', { name: 'Accept invite' }).click();
    await reviewer.waitForURL(`${env.url}/rooms/${id}`);
    const gate = reviewer.getByTestId('delib-gate');
    await gate.waitFor({ timeout: 60_000 });
    expect(await gate.textContent()).toContain('after proposal (round 1)');
    expect((await api('GET', `/v1/debates/${id}/status`)).status).toBe('paused');
    await shot(reviewer, 'deliberation-gate');
    // Rejecting needs a reason: nothing is sent without one.
    await gate.getByRole('button', { name: 'Reject' }).click();
    await gate.getByRole('alert').waitFor();
    expect((await api('GET', `/v1/debates/${id}/status`)).status).toBe('paused');
    await gate.getByLabel('reason').fill('the plan covers the tests');
    await gate.getByRole('button', { name: 'Approve' }).click();
    // Approved as the operator seat, with the reason; the session runs again (the next gate is round 2's).
    await until('the first gate decided', async () => {
      const g = (await api('GET', `/v1/debates/${id}/gates`)).gates[0];
      return g?.status === 'approved' ? g : null;
    }).then((g) => expect(g).toMatchObject({ decided_by: 'operator', reason: 'the plan covers the tests' }));
    await reviewer.getByTestId('delib-gates').filter({ hasText: 'approved by operator' }).waitFor();
    // Round 2's gate, approved from the page too.
    await reviewer.getByTestId('delib-gate').filter({ hasText: 'round 2' }).waitFor({ timeout: 60_000 });
    await reviewer.getByTestId('delib-gate').getByRole('button', { name: 'Approve' }).click();
    await until('completion', async () => (over(await api('GET', `/v1/debates/${id}/status`)) ? true : null));
    const results = await api('GET', `/v1/debates/${id}/results`);
    expect(results.status).toBe('completed');
    const gates = (await api('GET', `/v1/debates/${id}/gates`)).gates;
    expect(gates.map((g: { status: string; decided_by: string }) => `${g.status}:${g.decided_by}`)).toEqual([
      'approved:operator',
      'approved:operator',
    ]);

    // Code versions: every one measured; the trend runs from round 1's rate to round 2's.
    const versions = await until('every version measured', async () => {
      const r = await api('GET', `/v1/debates/${id}/results`);
      return r.code_versions.every((v: { test_pass_rate: number | null }) => v.test_pass_rate !== null)
        ? (r.code_versions as {
            version: number;
            round: number;
            test_pass_rate: number;
            diff: string | null;
          }[])
        : null;
    });
    expect(versions.find((v) => v.round === 1)!.test_pass_rate).toBeLessThan(versions.at(-1)!.test_pass_rate);
    const page = await adminPage();
    await page.goto(`${env.url}/rooms/${id}`);
    await page.getByTestId('delib-trend').waitFor();
    await expect.poll(() => page.getByTestId('delib-trend-point').count()).toBe(versions.length);
    const rates = await page
      .getByTestId('delib-trend-point')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-rate'))));
    expect(rates).toEqual(versions.map((v) => v.test_pass_rate));
    expect(await page.getByTestId('delib-trend-caption').textContent()).toContain(
      `v1 ${Math.round(versions[0]!.test_pass_rate * 100)}% → v${versions.length} ${Math.round(versions.at(-1)!.test_pass_rate * 100)}%`,
    );
    // The first version whose code changed: its diff, with added and removed lines marked.
    const changed = versions.find((v) => v.diff?.includes('\n+') && v.diff.includes('\n-'))!;
    expect(changed).toBeDefined();
    const row = page.locator(`[data-testid="delib-version"][data-version="${changed.version}"]`);
    await row.locator('summary').click();
    const diff = row.getByTestId('delib-diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('@@');
    expect(await diff.locator('.add').count()).toBeGreaterThan(0);
    expect(await diff.locator('.del').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('delib-outcome').textContent()).toContain(results.winner);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'deliberation-code');
    await page.setViewportSize({ width: 390, height: 860 });
    await shot(page, 'deliberation-code-390');

    // Lessons: the session's consensus lesson, found by words of its topic, highlighted.
    await until('the lesson', async () => {
      const r = await api('GET', '/v1/deliberation/lessons?q=quarterly%20ledger');
      return r.hits.length > 0 ? true : null;
    });
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${env.url}/`);
    await page.getByRole('link', { name: 'Lessons' }).click();
    await page.getByRole('searchbox', { name: 'search' }).fill('quarterly ledger');
    await page.getByLabel('domain').fill('code');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/deliberation\/lessons\?q=quarterly\+ledger&domain=code/);
    const hit = page.getByTestId('lesson-hit').filter({ hasText: id });
    await hit.waitFor();
    // The highlight is drawn after the hit: wait for it rather than read it once.
    await expect
      .poll(async () => (await hit.locator('mark').allTextContents()).map((m) => m.toLowerCase()))
      .toEqual(expect.arrayContaining(['quarterly', 'ledger']));
    await shot(page, 'deliberation-lessons');
    // Filters narrow it: no lesson is gold yet, and the category is the categoriser's.
    await page.getByLabel('tier').selectOption('gold');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('lessons-none').waitFor();
    await page.getByLabel('tier').selectOption('');
    await page.getByLabel('category').selectOption('security');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/category=security/);
    await expect.poll(() => page.getByTestId('lesson-hit').filter({ hasText: id }).count()).toBe(0);
    // The minimum score: just above the lesson's hides it, just below shows it (with its use count).
    const score = (await api('GET', '/v1/deliberation/lessons?q=quarterly%20ledger')).hits.find(
      (h: { lesson: { debateId: string } }) => h.lesson.debateId === id,
    ).lesson.score as number;
    expect(score).toBeLessThan(0.99);
    await page.getByLabel('category').selectOption('');
    await page.getByLabel('minimum score').fill(String(Math.round((score + 0.01) * 100) / 100));
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/minScore=/);
    await expect.poll(() => page.getByTestId('lesson-hit').filter({ hasText: id }).count()).toBe(0);
    await page.getByLabel('minimum score').fill(String(Math.round((score - 0.01) * 100) / 100));
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('lesson-hit').filter({ hasText: id }).waitFor();
    expect(await page.getByTestId('lesson-hit').filter({ hasText: id }).textContent()).toContain('used 0×');
    await shot(page, 'deliberation-lessons-min-score');
    await page.setViewportSize({ width: 390, height: 860 });
    await page.goto(`${env.url}/deliberation/lessons?q=quarterly+ledger`);
    await page.getByTestId('lesson-hit').first().waitFor();
    await shot(page, 'deliberation-lessons-390');
    await page.context().close();
    await reviewer.context().close();
  }, 300_000);

  it('a rejection from the page cancels the deliberation and shows why', async () => {
    const id = (
      await api('POST', '/v1/debates', {
        topic: 'Pick a queue for the billing events',
        participants: SIX,
        max_rounds: 1,
        enable_approval_gates: true,
        gate_phases: ['critique'],
      })
    ).id as string;
    const page = await adminPage(390);
    await page.goto(`${env.url}/rooms/${id}`);
    const gate = page.getByTestId('delib-gate');
    await gate.waitFor({ timeout: 60_000 });
    // A signed-out visitor sees the gate but no buttons it could not press, and in the raw log
    // every turn sealed to its audience (the hub and the spokes it heard), none readable.
    const visitor = await newPage(env);
    await visitor.goto(`${env.url}/rooms/${id}`);
    const seen = visitor.getByTestId('delib-gate');
    await seen.getByTestId('gate-waiting').waitFor();
    expect(await seen.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);
    await visitor.goto(`${env.url}/rooms/${id}?raw=1`);
    await visitor.getByTestId('entry').first().waitFor();
    const actions = visitor.locator('[data-testid="entry"].kind-action');
    await expect.poll(() => actions.count()).toBeGreaterThan(6);
    const labels = await actions.locator('.badge').allTextContents();
    expect(labels.every((l) => l.startsWith('sealed · '))).toBe(true);
    expect(await actions.locator('code.payload:not(.muted)').count()).toBe(0);
    await shot(visitor, 'deliberation-raw-log-visitor');
    await visitor.context().close();
    expect(await gate.textContent()).toContain('after critique (round 1)');
    await gate.getByLabel('reason').fill('the critics found no durable option');
    await shot(page, 'deliberation-gate-390');
    await gate.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('delib-status').filter({ hasText: 'cancelled' }).waitFor();
    const results = await api('GET', `/v1/debates/${id}/results`);
    expect(results.cancellation).toEqual({ by: 'operator', reason: 'the critics found no durable option' });
    expect(await page.getByTestId('delib-gates').textContent()).toContain(
      'rejected by operator — the critics found no durable option',
    );
    expect(await page.getByTestId('delib-gate').count()).toBe(0);
    await page.context().close();
  }, 120_000);
});
