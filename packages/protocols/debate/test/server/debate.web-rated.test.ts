// Debates made the way the web form makes them (POST /v1/rooms with every seat scripted, at demo
// pace): the unmask names the seat holders (the drivers' principals), a debate whose creator asked
// for rating rates them, and one that did not says why it is not rated.
import type { StartedServer } from '@db8/server/test/started-server.ts';
import { startEmbeddedServer } from '@db8/server/test/started-server.ts';
import type { RunningServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TIMINGS, DebateConfigSchema, type DebateView, debateSeats } from '../../rules/index.ts';

let server: RunningServer;
let started: StartedServer;
let admin: string;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
  return { status: res.status, json: (await res.json()) as any };
}

beforeAll(async () => {
  started = await startEmbeddedServer('db8-debate-web-rated-');
  server = started.server;
  admin = started.admin;
});
afterAll(() => started?.close());

/** What the web form sends with "all scripted" and "demo pace" (CreateDebate.tsx, Drivers.tsx). */
async function webDebate(rateScripted: boolean): Promise<string> {
  const config = {
    topic: 'Should cities ban cars from their centres?',
    tags: ['urbanism'],
    debaters: 3,
    judges: 1,
    viewers: 0,
    max_rounds: 1,
    signatures: 'optional',
    placement: 'approval',
    // The form's demo pace, but the two windows that only show results (no seat acts in them) last
    // a second: the test reads the closed room, not what was shown on the way.
    timings: { ...DEMO_TIMINGS, results_ms: 1_000, reveal_ms: 1_000 },
    rate_scripted: rateScripted,
  };
  const seats = debateSeats(DebateConfigSchema.parse(config)).map((s) => s.id);
  const drivers = Object.fromEntries(seats.map((s) => [s, { driver: 'model', provider: 'scripted' }]));
  const r = await api('POST', '/v1/rooms', { protocol: 'debate', title: 'web debate', config, drivers });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.room_id as string;
}

async function closed(id: string): Promise<DebateView> {
  for (;;) {
    const st = await api('GET', `/v1/rooms/${id}/state`);
    if (st.json.status === 'closed') return st.json.view as DebateView;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('debates made in the web: named and rated', () => {
  it('names the scripted holders, rates them when asked, and says why not otherwise', async () => {
    const [rated, unrated] = await Promise.all([webDebate(true), webDebate(false)]);
    const [view, other] = await Promise.all([closed(rated), closed(unrated)]);

    // Unmasked: every debater seat has a holder, and the holder has a display name.
    const ids = view.results!.identities!;
    const holders = Object.values(ids);
    expect(holders.every((h) => typeof h === 'string')).toBe(true);
    const names = await api('GET', `/v1/identities?ids=${holders.join(',')}`);
    for (const h of holders) expect(names.json.identities[h!]?.name).toContain('scripted');
    expect(Object.values(other.results!.identities!).every((h) => typeof h === 'string')).toBe(true);

    // Rated when asked: each holder's history has this debate with a rating change.
    const table = await api('GET', '/v1/ratings');
    expect(table.json.unrated.map((u: { room_id: string }) => u.room_id)).not.toContain(rated);
    const deltas: number[] = [];
    for (const h of holders) {
      const hist = await api('GET', `/v1/ratings/${h}`);
      expect(hist.status).toBe(200);
      const row = hist.json.history.find(
        (x: { match: string; scope: string }) => x.match === rated && x.scope === 'global',
      );
      expect(row).toBeDefined();
      deltas.push(row.delta);
    }
    // Placements differ (the scripted judges approve one debater), so someone's rating moved.
    expect(deltas.some((d) => d !== 0)).toBe(true);

    // Not asked: the table says why, and the debate is in nobody's history.
    expect(table.json.unrated).toContainEqual({
      room_id: unrated,
      reason: 'scripted seats, rating not requested',
    });
    for (const h of Object.values(other.results!.identities!)) {
      const hist = await api('GET', `/v1/ratings/${h}`);
      const rows = (hist.json.history ?? []) as Array<{ match: string }>;
      expect(rows.some((x) => x.match === unrated)).toBe(false);
    }
  }, 240_000);
});
