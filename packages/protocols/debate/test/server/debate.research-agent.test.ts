// Model debaters use the research tool: in the research phase the seat names pages and the server
// fetches them into the room's cache (as that seat, with the route's checks); when it drafts, its
// prompt carries the cached pages' text and hashes. A scripted seat makes no research call.
import type { Provider, StructuredRequest } from '@db8/agents';
import type { SeatContext } from '@db8/server/kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DebateView } from '../../rules/index.ts';
import { debateAgent } from '../../server/agent.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';
import { html, type PageServer, pageServer } from './research-server.ts';

let pages: PageServer;
beforeAll(async () => {
  pages = await pageServer({
    '/article': html(
      '<title>Car-free cities</title><p>Oslo removed most parking spaces from its centre.</p>',
    ),
  });
});
afterAll(() => pages.close());
let s: Awaited<ReturnType<typeof debateServer>>;
afterEach(() => s.close());

/** A provider that answers each schema with the given value and keeps every request. */
function fakeProvider(answers: Record<string, unknown>, scripted = false) {
  const requests: StructuredRequest<unknown>[] = [];
  const provider = {
    kind: 'openai',
    profile: 'fake',
    model: 'fake',
    endpoint: null,
    scripted,
    async call(req: StructuredRequest<unknown>) {
      requests.push(req);
      const value = req.schema.parse(answers[req.schemaName]);
      return { ok: true, value, record: { schemaName: req.schemaName } };
    },
  } as unknown as Provider;
  return { provider, requests };
}

async function decisionsOf(roomId: string, seat: string, token: string) {
  const st = await s.call('GET', `/v1/rooms/${roomId}/state`, { token });
  const ctx: SeatContext = {
    roomId,
    seat,
    role: 'debater',
    view: st.body.view as DebateView,
    legal: st.body.legal.actions,
    turnToken: null,
    persona: null,
    now: s.clock.now,
  };
  return { view: ctx.view as DebateView, decisions: debateAgent(ctx) };
}

describe('debate research: model seats', () => {
  it('fetches in the research phase and drafts with the cached pages in the prompt', async () => {
    s = await debateServer({
      research: { policy: { allowPrivate: false, allowHosts: new Set(['localhost']) } },
    });
    const room = await s.createDebate({ timings: { ...TIMINGS, research_ms: 10_000 } });
    const seats = await s.seatEveryone(room.room_id);
    const url = pages.url('/article');

    const a1 = await decisionsOf(room.room_id, 'anon_1', seats.get('anon_1')!.token);
    expect(a1.view.phase).toBe('research');
    const research = a1.decisions.find((d) => d.key.startsWith('research:'));
    expect(research).toBeDefined();
    // A scripted seat makes no call and fetches nothing.
    const scripted = fakeProvider({}, true);
    expect((await research!.run(scripted.provider, new AbortController().signal)).action).toBeNull();
    expect(scripted.requests).toEqual([]);
    const model = fakeProvider({ debate_research: { urls: [url] } });
    const out = await research!.run(model.provider, new AbortController().signal);
    expect(out.action).toBeNull();
    expect(out.error).toBeNull();
    expect(pages.hits.get('/article')).toBe(1);
    const cache = await s.call('GET', `/v1/debate/rooms/${room.room_id}/research`, { token: s.admin });
    expect(cache.body.entries.map((e: { url: string; fetched_by: string }) => [e.url, e.fetched_by])).toEqual(
      [[url, 'anon_1']],
    );

    // The submit window: anon_2's draft prompt carries the page anon_1 fetched.
    const st = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    s.clock.now = st.body.deadline_ms;
    await s.runtime.tick(room.room_id, s.clock.now);
    const a2 = await decisionsOf(room.room_id, 'anon_2', seats.get('anon_2')!.token);
    expect(a2.view.phase).toBe('submit');
    const submit = a2.decisions.find((d) => d.key.startsWith('submit:'));
    const body = {
      content: 'Cities can remove parking.',
      claims: [{ id: 'c1', text: 'Oslo removed parking', support: [{ kind: 'citation', ref: url }] }],
      citations: [
        { url, title: 'Car-free cities', quote: 'Oslo removed most parking spaces' },
        { url: 'https://example.org/b' },
      ],
    };
    const drafter = fakeProvider({ debate_submission: body });
    const drafted = await submit!.run(drafter.provider, new AbortController().signal);
    const prompt = drafter.requests[0]!.prompt;
    expect(prompt).toContain(url);
    expect(prompt).toContain('Oslo removed most parking spaces from its centre.');
    expect(prompt).toContain(cache.body.entries[0].sha256.slice(0, 16));
    expect((drafted.action as { citations: unknown[] }).citations).toEqual(body.citations);
    expect(pages.hits.get('/article')).toBe(1);

    // Verify: the model fact-checker's prompt says whether each quote is in the snapshot.
    const sent = await s.call('POST', `/v1/rooms/${room.room_id}/actions`, {
      token: seats.get('anon_2')!.token,
      body: { seat: 'anon_2', action: drafted.action },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const st2 = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    s.clock.now = st2.body.deadline_ms;
    await s.runtime.tick(room.room_id, s.clock.now);
    const fc = await decisionsOf(room.room_id, 'fact_checker', seats.get('fact_checker')!.token);
    expect(fc.view.phase).toBe('verify');
    const verdict = fc.decisions.find((d) => d.key.startsWith('verdict:anon_2:'));
    expect(verdict).toBeDefined();
    const checker = fakeProvider({
      debate_verdicts: { claims: [{ claim_id: 'c1', verdict: 'true', reason: 'in the cached page' }] },
    });
    await verdict!.run(checker.provider, new AbortController().signal);
    expect(checker.requests[0]!.prompt).toContain(
      `${url} "Oslo removed most parking spaces": found in snapshot sha256 ${cache.body.entries[0].sha256.slice(0, 16)}`,
    );
  });
});
