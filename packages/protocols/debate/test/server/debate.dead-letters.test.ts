// Seed 000's dead-letter queue and per-(room, author) submission limit on the server: a submission
// refused for its signature or its deadline leaves a record with the reason, sealed to its author
// and admins and listed for the moderator; a debater's submissions draw on their own bucket.
import { randomBytes } from 'node:crypto';
import { ed25519, signSshsig, toBase64 } from '@db8/core';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedDecisions } from '../../agent/index.ts';
import { submissionBytes } from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
afterEach(() => s.close());

/** A debate in its first submit phase, everyone seated, and the seat's scripted submission. */
async function openDebate(opts: Parameters<typeof debateServer>[0] = {}) {
  s = await debateServer(opts);
  const room = await s.createDebate({ timings: TIMINGS });
  const seats = await s.seatEveryone(room.room_id);
  const submissionOf = async (seat: string) => {
    const st = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: seats.get(seat)!.token });
    const sub = scriptedDecisions(seat, st.body.view, st.body.legal.actions).find(
      (d) => d.action.type === 'submit',
    );
    expect(sub, seat).toBeDefined();
    return sub!.action as Record<string, unknown>;
  };
  // The submission's own client_nonce (in the signed payload) names a version: a new one per try.
  const submit = (seat: string, action: Record<string, unknown>, nonce: string) =>
    s.call('POST', `/v1/rooms/${room.room_id}/actions`, {
      token: seats.get(seat)!.token,
      body: { seat, action: { ...action, client_nonce: `${seat}-${nonce}` } },
    });
  const deadLetters = (token?: string) =>
    s.call('GET', `/v1/debate/rooms/${room.room_id}/dead-letters`, token ? { token } : {});
  return { roomId: room.room_id, seats, submissionOf, submit, deadLetters };
}

describe('debate dead letters', () => {
  it('keeps a submission refused for its signature or its deadline, sealed to its author and admins', async () => {
    const d = await openDebate();
    // anon_3 signs with a key the room does not trust.
    const stranger = ed25519.keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const sub = await d.submissionOf('anon_3');
    const signed = {
      ...sub,
      signature_kind: 'ssh',
      signature_b64: toBase64(
        new TextEncoder().encode(
          signSshsig({ seed: stranger.seed, namespace: 'db8', message: submissionBytes(sub as never) }),
        ),
      ),
    };
    const bad = await d.submit('anon_3', signed, 'n1');
    expect(bad.status).toBe(409);
    expect(bad.body.error.code).toBe('BAD_SIGNATURE');
    // anon_1's in-time submission is accepted and leaves no dead letter.
    const late = await d.submissionOf('anon_1');
    expect((await d.submit('anon_1', late, 'n1')).status).toBe(200);

    // At the submit deadline, before the tick, anon_2's submission is refused; after the tick
    // (the room moved on to verify), so is anon_4's.
    const st = await s.call('GET', `/v1/rooms/${d.roomId}/state`, { token: s.admin });
    const sub2 = await d.submissionOf('anon_2');
    const sub4 = await d.submissionOf('anon_4');
    s.clock.now = st.body.deadline_ms;
    const atDeadline = await d.submit('anon_2', sub2, 'n1');
    expect(atDeadline.status).toBe(409);
    expect(atDeadline.body.error.code).toBe('PHASE_CLOSED');
    await s.runtime.tick(d.roomId, s.clock.now);
    const past = await d.submit('anon_4', sub4, 'n1');
    expect(past.body.error.code).toBe('WRONG_PHASE');

    const admin = await d.deadLetters(s.admin);
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const rows = admin.body.dead_letters as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.seat, r.code])).toEqual([
      ['anon_3', 'BAD_SIGNATURE'],
      ['anon_2', 'PHASE_CLOSED'],
      ['anon_4', 'WRONG_PHASE'],
    ]);
    expect(rows[0]!.reason).toBe(bad.body.error.message);
    expect(rows[0]!.action).toEqual({ ...signed, client_nonce: 'anon_3-n1' });

    // The author sees its own, with what it sent; another debater sees none; an observer is refused.
    const own = await d.deadLetters(d.seats.get('anon_3')!.token);
    expect(own.body.dead_letters).toHaveLength(1);
    expect(own.body.dead_letters[0].action).toEqual(rows[0]!.action);
    const other = await d.deadLetters(d.seats.get('anon_1')!.token);
    expect(other.body.dead_letters).toEqual([]);
    const judge = await d.deadLetters(d.seats.get('judge_1')!.token);
    expect(judge.body.dead_letters).toEqual([]);
    expect((await d.deadLetters()).status).toBe(403);
  });

  it('lists every dead letter for the moderator, without what was sent', async () => {
    const d = await openDebate();
    const sub = await d.submissionOf('anon_4');
    const bad = await d.submit('anon_4', { ...sub, signature_kind: 'ssh', signature_b64: 'AAAA' }, 'n1');
    expect(bad.body.error.code).toBe('BAD_SIGNATURE');
    const agent = await s.call('POST', '/v1/agents', { body: { name: 'moderator-bot' } });
    const invite = await s.call('POST', `/v1/rooms/${d.roomId}/invites`, {
      token: s.admin,
      body: { seat: 'moderator' },
    });
    const j = await s.call('POST', `/v1/rooms/${d.roomId}/join`, {
      token: agent.body.api_key,
      body: { seat: 'moderator', ...(invite.body.invite ? { invite: invite.body.invite } : {}) },
    });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    const list = await d.deadLetters(j.body.session_token);
    expect(list.status).toBe(200);
    expect(list.body.dead_letters).toHaveLength(1);
    expect(list.body.dead_letters[0]).toMatchObject({ seat: 'anon_4', code: 'BAD_SIGNATURE' });
    expect(list.body.dead_letters[0].action).toBeUndefined();
  });
});

describe('debate submission rate limit', () => {
  it('answers 429 RATE_LIMITED past the per-(room, author) limit, without touching other authors', async () => {
    const d = await openDebate({ submitLimit: { max: 2, windowMs: 4_000 } });
    const sub = await d.submissionOf('anon_1');
    expect((await d.submit('anon_1', sub, 'a')).status).toBe(200);
    expect((await d.submit('anon_1', sub, 'b')).status).toBe(200);
    const third = await d.submit('anon_1', sub, 'c');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(third.body.error.details.retry_after_ms).toBeGreaterThan(0);
    // Another author in the same room has its own bucket.
    expect((await d.submit('anon_2', await d.submissionOf('anon_2'), 'a')).status).toBe(200);
    // The bucket refills with time.
    s.clock.now += 2_000; // one token back, still before the submit deadline (10 s)
    expect((await d.submit('anon_1', sub, 'd')).status).toBe(200);
  });
});
