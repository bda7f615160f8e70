// The debate guide for agents (/v1/protocols/debate/skill.md): prose with a worked example, and
// the example itself — the legal `submit` entry sent back with the content added — is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LegalAction, submissionSha256 } from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
beforeAll(async () => {
  s = await debateServer();
});
afterAll(() => s.close());

async function guide(): Promise<string> {
  const r = await s.app.inject({ method: 'GET', url: '/v1/protocols/debate/skill.md' });
  expect(r.statusCode).toBe(200);
  return r.body;
}

/** The request body of the guide's worked example (its ```http block, after the headers). */
function exampleBody(doc: string): { seat: string; client_nonce: string; action: Record<string, unknown> } {
  const block = /```http\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block).toBeDefined();
  return JSON.parse(block!.slice(block!.indexOf('\n\n') + 2));
}

describe('the debate guide', () => {
  it('is a guide, not only a schema: the loop, each legal entry, a worked example, client_nonce placed', async () => {
    const doc = await guide();
    for (const heading of ['## The loop', '## What each legal entry asks of you', '## Worked example'])
      expect(doc).toContain(heading);
    expect(doc).toMatch(/`client_nonce` goes \*\*inside the action\*\*/);
    const body = exampleBody(doc);
    expect(body.action.client_nonce).toBe(body.client_nonce);
  });

  it("accepts the guide's worked example in a live room: the legal entry sent back with the content added", async () => {
    const room = await s.createDebate({ timings: TIMINGS });
    const seats = await s.seatEveryone(room.room_id);
    const seat = seats.get('anon_3')!;
    const st = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: seat.token });
    const entry = (st.body.legal.actions as LegalAction[]).find((a) => a.type === 'submit')!;
    expect(entry).toBeDefined();
    const body = exampleBody(await guide());
    // This room's values in place of the example's, exactly as the guide says: copy the entry.
    const action = { ...body.action, ...entry };
    const sent = await s.call('POST', `/v1/rooms/${room.room_id}/actions`, {
      token: seat.token,
      body: { ...body, action },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const mine = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: seat.token });
    const sub = mine.body.view.rounds[0].submissions.find((x: { author: string }) => x.author === 'anon_3');
    // The hints are not part of what is hashed (and signed).
    const {
      version: _v,
      content_max: _c,
      claims_max: _m,
      citations_min: _n,
      signatures: _s,
      ...bare
    } = action;
    expect(sub.canonical_sha256).toBe(submissionSha256(bare as never));

    // The schema stays strict about anything else: a misspelt field is still refused.
    const typo = await s.call('POST', `/v1/rooms/${room.room_id}/actions`, {
      token: seat.token,
      body: { seat: 'anon_3', action: { ...action, client_nonce: 'other', contnet: 'x' } },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error.code).toBe('BAD_ACTION');
  });
});
