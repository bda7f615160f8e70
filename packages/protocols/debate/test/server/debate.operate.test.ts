// Operating a debate over REST (POST /v1/debate/rooms/:id/operate): admins only, each operation
// an entry the rules fold (a refused move is a 409 with the rules' code), a no-show's seat passing
// to a new holder who then argues in it, and the room's log still replaying after all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebateView } from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
beforeAll(async () => {
  s = await debateServer();
});
afterAll(() => s.close());

const operate = (id: string, body: unknown, token = s.admin) =>
  s.call('POST', `/v1/debate/rooms/${id}/operate`, { token, body });
const stateOf = async (id: string, token = s.admin) => {
  const st = await s.call('GET', `/v1/rooms/${id}/state`, { token });
  return { ...st.body, view: st.body.view as DebateView };
};

describe('operating a debate over REST', () => {
  it('pause, extend, resume, replace a no-show and abort, each in the log; refusals are 4xx with codes', async () => {
    const room = await s.createDebate({ timings: TIMINGS });
    const id = room.room_id;
    const seats = await s.seatEveryone(id);
    const anon1 = seats.get('anon_1')!;

    // Not an admin: 403, and nothing was written.
    const before = (await stateOf(id)).seq;
    const denied = await operate(id, { op: 'pause' }, anon1.token);
    expect(denied.status).toBe(403);
    expect((await stateOf(id)).seq).toBe(before);
    expect((await operate(id, { op: 'extend', seconds: 0 })).status).toBe(400);
    expect((await operate('room_nope', { op: 'pause' })).status).toBe(404);

    // anon_1 submits; anon_3 never does.
    const st1 = await stateOf(id, anon1.token);
    const legal = st1.legal.actions.find((a: { type: string }) => a.type === 'submit');
    const submit = {
      type: 'submit',
      room_id: legal.room_id ?? id,
      round_id: legal.round_id,
      author_id: 'anon_1',
      phase: legal.phase,
      deadline_unix: legal.deadline_unix,
      content: 'anon_1 argues.',
      claims: [{ id: 'c1', text: 'a claim', support: [{ kind: 'citation', ref: 'https://example.org/a' }] }],
      citations: [{ url: 'https://example.org/a' }, { url: 'https://example.org/b' }],
      client_nonce: 'n1',
    };
    const sent = await s.call('POST', `/v1/rooms/${id}/actions`, {
      token: anon1.token,
      body: { seat: 'anon_1', action: submit },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    // Pause: the countdown stops with the time left, and seats are refused.
    const deadline = (await stateOf(id)).deadline_ms as number;
    s.clock.now += 1_000;
    const paused = await operate(id, { op: 'pause', reason: 'a speaker dropped out' });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const p = await stateOf(id);
    expect(p.view.paused).toMatchObject({ remaining: deadline - s.clock.now });
    expect(p.deadline_ms).toBeNull();
    const draft = await s.call('POST', `/v1/rooms/${id}/actions`, {
      token: anon1.token,
      body: { seat: 'anon_1', action: { type: 'draft', content: 'x' } },
    });
    expect(draft.status).toBe(409);
    expect(draft.body.error.code).toBe('PAUSED');
    expect((await operate(id, { op: 'pause' })).body.error.code).toBe('PAUSED');

    // Extend while paused, then resume an hour later: the window has its time left plus 30 s.
    expect((await operate(id, { op: 'extend', seconds: 30 })).status).toBe(200);
    s.clock.now += 3_600_000;
    expect((await operate(id, { op: 'resume' })).status).toBe(200);
    const remaining = p.view.paused!.remaining + 30_000;
    expect((await stateOf(id)).deadline_ms).toBe(s.clock.now + remaining);

    // Replace: anon_1 has submitted (409), anon_3 has not: a new agent takes it and argues.
    const stranger = await s.call('POST', '/v1/agents', { body: { name: 'stand-in' } });
    const principal = stranger.body.agent_id as string;
    const refused = await operate(id, { op: 'replace', seat: 'anon_1', principal });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NOT_A_NO_SHOW');
    expect((await operate(id, { op: 'replace', seat: 'anon_3', principal: 'agent_nope' })).status).toBe(404);
    const replaced = await operate(id, { op: 'replace', seat: 'anon_3', principal, reason: 'no-show' });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.join_seq).toBeGreaterThan(replaced.body.seq);
    const joined = await s.call('POST', `/v1/rooms/${id}/join`, {
      token: stranger.body.api_key,
      body: { seat: 'anon_3' },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.seat).toBe('anon_3');
    expect(
      (await stateOf(id)).view.debaters.find((d: { seat: string }) => d.seat === 'anon_3')?.identity,
    ).toBe(principal);
    const oldHolder = await s.call('POST', `/v1/rooms/${id}/actions`, {
      token: seats.get('anon_3')!.token,
      body: { seat: 'anon_3', action: { type: 'draft', content: 'old holder' } },
    });
    // The old holder's seat session no longer names a seat it holds.
    expect(oldHolder.status).toBe(401);
    const newHolder = await s.call('POST', `/v1/rooms/${id}/actions`, {
      token: joined.body.session_token,
      body: { seat: 'anon_3', action: { type: 'draft', content: 'the stand-in drafts' } },
    });
    expect(newHolder.status, JSON.stringify(newHolder.body)).toBe(200);

    // Abort: closed, unrated, and a later operation is DEBATE_OVER.
    const aborted = await operate(id, { op: 'abort', reason: 'test over' });
    expect(aborted.status).toBe(200);
    const done = await stateOf(id);
    expect(done.status).toBe('closed');
    expect(done.view.aborted).toMatchObject({ reason: 'test over' });
    const late = await operate(id, { op: 'extend', seconds: 10 });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('DEBATE_OVER');

    // Every operation is an entry of the log, which replays.
    const entries = await s.call('GET', `/v1/rooms/${id}/entries?limit=500`, { token: s.admin });
    const ops = (entries.body.entries as Array<{ actor: string; payload?: { type?: string } }>)
      .filter((e) => e.actor === 'moderator' && e.payload !== undefined) // identity bindings are sealed
      .map((e) => e.payload?.type);
    expect(ops).toEqual(['pause', 'extend', 'resume', 'replace_seat', 'abort']);
    const replay = await s.runtime.replay(id);
    expect(replay.ok, JSON.stringify(replay.problems)).toBe(true);
  });
});
