import { until as untilRead } from 'db8/test/arena-servers.ts';
import {
  adminLogin,
  buildWeb,
  client,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A person entrant in a deliberation round robin plays its proposer seat from the deliberation
// room page (no REST or MCP of their own): the organizer makes the invitation, the person (an agent
// registered by name stands in for them, as in arena-claim) claims it, opens each match room, sends
// a plan and then a proposal through the page's forms within each step's window, and the judge
// places what they proposed by the same rule as everyone's.

let env: Env;
let admin = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_ARENA_SCAN_MS: '200' } });
  const page = await newPage(env);
  admin = await adminLogin(env, page);
  await page.context().close();
}, 180_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-delib-person-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const TOPIC = 'Design rate limiting for a public HTTP API';
const POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];
// Three of the four points at 0.75: the judge's 0.75, below thorough's 0.95, above partial's 0.40.
const TEXT = `Grace's design: ${POINTS.slice(0, 3).join(', ')}; nothing on the fourth.`;

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });
const Pending = z.object({
  matches: z.array(
    z.object({
      match: z.string(),
      status: z.string(),
      room_id: z.string().nullable(),
      seat: z.string().nullable(),
    }),
  ),
});
const Arena = z.object({
  phase: z.string(),
  played: z.number(),
  standings: z.object({
    rows: z.array(z.object({ entrant: z.string(), wins: z.number(), losses: z.number() })),
  }),
  matches: z.array(
    z.object({
      entrants: z.array(z.string()),
      result: z
        .object({
          room: z.string(),
          placements: z.array(z.object({ entrant: z.string(), place: z.number() })),
        })
        .nullable(),
    }),
  ),
});

describe('a person entrant plays deliberation matches from the room page', () => {
  it('plans and proposes in each match through the page; the judge places the proposal', async () => {
    const boss = client(env, admin);
    const t = await boss.createRoom({
      protocol: 'arena',
      title: 'person deliberation cup',
      config: {
        name: 'person deliberation cup',
        game: 'deliberation',
        // Each step waits this long for the person: long enough to fill a form on a busy machine,
        // short enough that a match would still end within the test if a step went unplayed.
        gameConfig: { topic: TOPIC, points: POINTS, windowMs: 45_000 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'thorough', kind: 'scripted', strategy: 'thorough' },
          { name: 'partial', kind: 'scripted', strategy: 'partial' },
          { name: 'Grace', kind: 'person' },
        ],
        seed: 'person deliberation cup',
        concurrency: 3,
        bootstrap: 0,
      },
    });
    const { invites } = await boss.request(Invites, 'POST', `/v1/arena/tournaments/${t.room_id}/invites`, {});
    const anon = client(env);
    const reg = await anon.registerAgent({ name: 'Grace Hopper' });
    const session = await anon.sessionFromApiKey({ api_key: reg.api_key });
    const grace = client(env, session.token);
    await grace.request(z.unknown(), 'POST', `/v1/arena/tournaments/${t.room_id}/claim`, {
      invite: invites.find((i) => i.entrant === 'Grace')!.invite,
    });

    const page = await newPage(env);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.addInitScript((s) => localStorage.setItem('db8.session', s), JSON.stringify(session));
    const played = new Map<string, string>();
    const end = Date.now() + 400_000;
    while (played.size < 2) {
      if (Date.now() > end) throw new Error(`played ${played.size} of 2 matches`);
      const { matches } = await grace.request(Pending, 'GET', '/v1/arena/matches');
      const next = matches.find((m) => m.status === 'open' && m.room_id && !played.has(m.room_id));
      if (!next) {
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      await page.goto(`${env.url}/rooms/${encodeURIComponent(next.room_id!)}`);
      const panel = page.getByTestId('delib-turn');
      const plan = panel.getByTestId('delib-plan-form');
      await plan.waitFor({ timeout: 60_000 });
      await plan.getByLabel('description').fill('my design');
      await plan.getByRole('button', { name: 'Send plan' }).click();
      const propose = panel.getByTestId('delib-propose-form');
      await propose.waitFor({ timeout: 60_000 });
      await propose.getByLabel('proposal').fill(TEXT);
      await propose.getByLabel('confidence').fill('0.75');
      if (played.size === 0) await shot(page, 'arena-deliberation-person-propose');
      await propose.getByRole('button', { name: 'Send proposal' }).click();
      // The proposal is often the step's last: the judge votes and the room closes at once, which
      // can replace the panel (and its "sent" line) before the page is read again. The log is the
      // witness: wait until the seat's proposal is in it (the page's own lines are checked in
      // deliberation-seat.int.test.ts).
      await untilRead(
        async () =>
          ((await boss.state(next.room_id!)).view as { turns: { seat: string; action: { type: string } }[] })
            .turns,
        (turns) => turns.some((x) => x.seat === next.seat && x.action.type === 'propose'),
      );
      played.set(next.room_id!, next.seat!);
    }
    await page.context().close();

    let v = Arena.parse((await boss.state(t.room_id)).view);
    const until = Date.now() + 300_000;
    while (v.phase !== 'closed') {
      if (Date.now() > until) throw new Error(`the tournament is still ${v.phase}`);
      await new Promise((r) => setTimeout(r, 500));
      v = Arena.parse((await boss.state(t.room_id)).view);
    }
    expect(v.played).toBe(3);
    // In each of Grace's rooms her seat's actions are the two the page sent, what she typed.
    for (const [room, seat] of played) {
      const view = (await boss.state(room)).view as {
        turns: { seat: string; action: Record<string, unknown> }[];
      };
      const own = view.turns.filter((x) => x.seat === seat).map((x) => x.action);
      expect(own.map((a) => a.type)).toEqual(['plan', 'propose']);
      expect(own[1]).toMatchObject({ content: TEXT, confidence: 0.75 });
    }
    expect(v.standings.rows.map((r) => [r.entrant, r.wins, r.losses])).toEqual([
      ['thorough', 2, 0],
      ['Grace', 1, 1],
      ['partial', 0, 2],
    ]);
  }, 600_000);
});
