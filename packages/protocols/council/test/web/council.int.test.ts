import { adminLogin, buildWeb, type Env, newPage, shot, startEnv } from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A council room in headless Chromium against a real server. An admin creates the room through the
// API with all five roles played by the scripted provider (each call slowed by the server's
// test-only DB8_SCRIPTED_DELAY_MS, so the run takes seconds); a signed-out observer opens the page
// at once and watches the roles × stages grid fill over the WebSocket, the stepper reach
// `completed`, and the Final Packet render with working JSON and Markdown downloads. The Critic's
// budget (two calls) runs out in round 3, so one turn fails and the packet is degraded. A second
// room, with only the Proponent driven, shows a sealed turn and stage timeouts.

const DELAY_MS = 1000;
let env: Env;
let admin: string;

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_SCRIPTED_DELAY_MS: String(DELAY_MS) } });
  const page = await newPage(env);
  admin = await adminLogin(env, page);
  await page.context().close();
}, 180_000);

afterAll(async () => {
  await env?.close();
});

const scripted = { driver: 'model', provider: 'scripted' } as const;

async function createCouncil(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${env.url}/v1/rooms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ protocol: 'council', ...body }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`create council: ${res.status} ${text}`);
  return (JSON.parse(text) as { room_id: string }).room_id;
}

type GridSample = { states: Record<string, string>; progress: string };

/** Every cell's data-state, read in one go so a sample is one consistent picture of the page. */
function sampleGrid(page: Page): Promise<GridSample> {
  return page.evaluate(() => {
    const states: Record<string, string> = {};
    for (const el of document.querySelectorAll('[data-testid^="cell-"]')) {
      states[el.getAttribute('data-testid') ?? ''] = el.getAttribute('data-state') ?? '';
    }
    const progress = document.querySelector('[data-testid="grid-progress"]')?.textContent ?? '';
    return { states, progress };
  });
}

const turnCells = (s: GridSample) =>
  Object.entries(s.states).filter(([id, st]) => id !== 'cell-packet' && st !== 'na');
const filled = (s: GridSample) => turnCells(s).filter(([, st]) => st !== 'empty').length;

describe('council room page', () => {
  it('fills the grid live, walks the stepper to completed, renders the packet and its downloads', async () => {
    const page = await newPage(env);
    const roomId = await createCouncil({
      title: 'Four-day week council',
      config: { question: 'Should we adopt a four-day week?', stageWindowMs: 60_000 },
      drivers: {
        proponent: scripted,
        critic: { ...scripted, budget: { maxCalls: 2 } },
        analyst: scripted,
        synthesizer: scripted,
        judge: scripted,
        operator: scripted,
      },
    });
    // Opened straight away, signed out: an observer, who sees round turns only once revealed.
    await page.goto(`${env.url}/rooms/${roomId}`);
    await page.getByTestId('council-grid').waitFor({ timeout: 15_000 });

    const samples: GridSample[] = [];
    let partialShot = false;
    const end = Date.now() + 60_000;
    for (;;) {
      const s = await sampleGrid(page);
      samples.push(s);
      const n = filled(s);
      if (!partialShot && n > 0 && n < turnCells(s).length) {
        await shot(page, 'council-filling');
        partialShot = true;
      }
      if (n === 17 && s.states['cell-packet'] === 'ok') break;
      if (Date.now() > end) throw new Error(`grid never filled: last ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 40));
    }
    // 5 roles × 3 rounds + the assessment + the verdict; the rest of Consensus/Judge are not turns.
    const last = samples.at(-1)!;
    expect(turnCells(last).length).toBe(17);
    expect(last.progress).toBe('17/17 played');
    // Seen live: at least one picture with some cells played and some still open, and the count
    // never went down.
    const counts = samples.map(filled);
    console.log(`grid fill counts seen: ${[...new Set(counts)].join(' → ')} over ${samples.length} samples`);
    expect(counts.some((n) => n > 0 && n < 17)).toBe(true);
    expect(counts.every((n, i) => i === 0 || n >= counts[i - 1]!)).toBe(true);
    expect(new Set(counts).size).toBeGreaterThan(2);

    // The Critic's third call is over its budget: a failed turn, marked as such.
    expect(last.states['cell-Critic-Round3']).toBe('failed');
    await expect
      .poll(() => page.getByTestId('cell-Critic-Round3').textContent())
      .toContain('budget_exceeded');
    for (const role of ['Proponent', 'Analyst', 'Synthesizer', 'Judge'])
      expect(last.states[`cell-${role}-Round3`]).toBe('ok');
    expect(last.states['cell-Synthesizer-Consensus']).toBe('ok');
    expect(last.states['cell-Judge-Judge']).toBe('ok');
    expect(last.states['cell-Proponent-Judge']).toBe('na');
    await expect.poll(() => page.getByTestId('cell-Proponent-Round1').textContent()).toContain('support');

    // The stepper: every state left (Round3 degraded by the failure), and the run completed.
    await page.getByTestId('step-end').and(page.locator('[data-state="completed"]')).waitFor();
    expect(await page.getByTestId('step-Round3').getAttribute('data-state')).toBe('degraded');
    for (const s of ['Intake', 'Round1', 'Round2', 'Consensus', 'Judge', 'Packetize', 'Writeback'])
      expect(await page.getByTestId(`step-${s}`).getAttribute('data-state')).toBe('done');

    // The packet: decision, rationale, actions with owner and due date, scores, markers.
    const packet = page.getByTestId('packet');
    await packet.waitFor();
    expect(await page.getByTestId('packet-decision').textContent()).toContain('[scripted]');
    expect((await page.getByTestId('packet-rationale').textContent())?.length).toBeGreaterThan(10);
    expect(await page.getByTestId('packet-scripted').isVisible()).toBe(true);
    expect(await page.getByTestId('packet-degraded').isVisible()).toBe(true);
    const markers = await page.getByTestId('packet-marker').allTextContents();
    expect(
      markers.some((m) => m.includes('Round3') && m.includes('Critic') && m.includes('budget_exceeded')),
    ).toBe(true);
    const owners = await page.getByTestId('action-owner').allTextContents();
    const dues = await page.getByTestId('action-due').allTextContents();
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((o) => o.trim().length > 0)).toBe(true);
    expect(dues.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    const evidence = await page.getByTestId('score-evidence').textContent();
    // 15 of the 16 evidence turns are ok.
    expect(evidence).toContain(`${Math.round((15 / 16) * 1000) / 10}%`);
    expect(await page.getByTestId('packet-risks').locator('li').count()).toBeGreaterThan(0);

    // The download links are the server's packet routes, and they serve the same packet.
    const jsonHref = await page.getByTestId('packet-json').getAttribute('href');
    const mdHref = await page.getByTestId('packet-md').getAttribute('href');
    expect(jsonHref).toBe(`/v1/rooms/${roomId}/council/packet.json`);
    const json = await fetch(`${env.url}${jsonHref}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    const body = (await json.json()) as {
      format: string;
      question: string;
      degradation: { degraded: boolean };
    };
    expect(body.format).toBe('db8.council.final-packet/v1');
    expect(body.question).toBe('Should we adopt a four-day week?');
    expect(body.degradation.degraded).toBe(true);
    const md = await fetch(`${env.url}${mdHref}`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    const text = await md.text();
    expect(text).toContain('# Council decision — Should we adopt a four-day week?');
    expect(text).toContain('**DEGRADED**');
    // A click downloads the file (the `download` attribute), named by the server.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('packet-md').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`council-${roomId}.md`);

    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'council-complete');
    await page.context().close();
  }, 120_000);

  it('shows a played round turn as sealed until the round closes, and timed-out roles as failed', async () => {
    const page = await newPage(env);
    const roomId = await createCouncil({
      title: 'Sealed round',
      config: { question: 'Only the Proponent is driven: what do observers see?', stageWindowMs: 4_000 },
      drivers: { proponent: scripted },
    });
    await page.goto(`${env.url}/rooms/${roomId}`);
    const cell = page.getByTestId('cell-Proponent-Round1');
    await cell.and(page.locator('[data-state="sealed"]')).waitFor({ timeout: 15_000 });
    // Sealed: the observer sees that a turn exists, never its content.
    expect(await cell.textContent()).not.toContain('[scripted]');
    expect(await page.getByTestId('cell-Critic-Round1').getAttribute('data-state')).toBe('empty');
    expect(await page.getByTestId('step-Round1').getAttribute('data-state')).toBe('current');
    await shot(page, 'council-sealed');

    // The stage window passes: missing roles time out (failed, visible to all), the opening is revealed.
    await cell.and(page.locator('[data-state="ok"]')).waitFor({ timeout: 20_000 });
    const critic = page.getByTestId('cell-Critic-Round1');
    expect(await critic.getAttribute('data-state')).toBe('failed');
    expect(await critic.textContent()).toContain('STAGE_TIMEOUT');
    await expect.poll(() => page.getByTestId('step-Round1').getAttribute('data-state')).toBe('degraded');
    await shot(page, 'council-timeouts');
    await page.context().close();
  }, 60_000);
});
