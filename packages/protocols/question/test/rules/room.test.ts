import { canonicalize } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { questionConfig } from '../../rules/config.ts';
import { validateAnswerRoomMetadata } from '../../rules/upstream.ts';
import { projectMetadata } from '../../rules/view.ts';
import { key, signedEnvelope, T0 } from './fixtures.ts';
import { ASKER, close, input, join, P1, P2, QID, QRoom, say, summary } from './room-harness.ts';

const MIN = 60_000;

describe('question room: opening', () => {
  it('the room is the question: a response channel that differs is refused', () => {
    const r = questionConfig(signedEnvelope({ 'delivery/response-channel-id': 'question:other' }));
    expect(!r.ok && r.error.code).toBe('CHANNEL_MISMATCH');
    const forged = { ...signedEnvelope(), 'question/text': 'changed' };
    expect(
      !questionConfig(forged).ok && (questionConfig(forged) as { error: { code: string } }).error.code,
    ).toBe('BAD_SIGNATURE');
  });

  it('defaults the profile per scope (upstream proposal 005) and refuses direct-live in a global room', () => {
    expect(new QRoom({ 'room-policy/profile': undefined }).view({ kind: 'observer' }).profile).toBe(
      'mediated-only',
    );
    const global = signedEnvelope({
      'delivery/scope': 'global',
      'request/exposure-mode': 'public-call-for-help',
      'room-policy/profile': 'direct-live-allowed',
    });
    const r = questionConfig(global);
    expect(!r.ok && r.error.code).toBe('PROFILE_FORBIDDEN');
  });
});

describe('question room: admission by the envelope filters', () => {
  it('admits a matching responder and gives each failed filter its own code', () => {
    const room = new QRoom({ 'models/exclude': ['model:legacy'] });
    const j = join(P1);
    expect(room.send(j)).toBe('OK');
    expect(room.send(j)).toBe('REPLAYED');
    expect(room.send(join(P1))).toBe('ALREADY_JOINED');
    expect(room.send(join(ASKER))).toBe('ALREADY_JOINED');
    expect(room.send(join(key(20), { 'responder/models': ['model:other'] }))).toBe('MODEL_REQUIRED');
    expect(room.send(join(key(21), { 'responder/models': ['model:gpt-5', 'model:legacy'] }))).toBe(
      'MODEL_EXCLUDED',
    );
    // The reputation is the relaying roster node's (node:c: 0.5), whatever the join claims.
    expect(room.send(join(key(22), { 'responder/reputation': 1, 'sender/node-id': 'node:c' }))).toBe(
      'REPUTATION_TOO_LOW',
    );
    // Without a roster no node can vouch: a question that needs a reputation admits no one.
    const bare = new QRoom({ 'models/exclude': ['model:legacy'] }, { roster: undefined });
    expect(bare.send(join(key(23), { 'responder/reputation': 1 }))).toBe('REPUTATION_UNKNOWN');
    expect(room.send(join(key(24), { 'responder/languages': ['de'] }))).toBe('LANGUAGE_MISMATCH');
    expect(room.send(join(key(25), { 'responder/tags': ['cooking'] }))).toBe('NO_SHARED_TAG');
  });

  it('refuses a forged, oversized, replayed or misaddressed input, and one from a stranger', () => {
    const room = new QRoom();
    room.send(join(P1));
    const msg = say(P1, 'keep both roots');
    expect(room.send({ ...msg, 'message/text': 'forged' })).toBe('BAD_SIGNATURE');
    expect(room.send(say(P1, 'x'.repeat(7000), { 'origin/speaker': 'y'.repeat(200) }))).toBe('OK');
    const big = new QRoom({}, { maxInputBytes: 1024 });
    big.send(join(P1));
    expect(big.send(say(P1, 'x'.repeat(2000)))).toBe('OVERSIZED');
    expect(room.send(msg)).toBe('OK');
    expect(room.send(msg)).toBe('REPLAYED');
    expect(room.send(input(P1, 'swarm/room-presence', { 'question/id': 'question:other' }))).toBe(
      'WRONG_ROOM',
    );
    expect(room.send(say(P2, 'hello'))).toBe('NOT_ADMITTED');
  });
});

describe('question room: origin classes and the operator-participation profile', () => {
  it('mediated-only admits node-mediated humans, not live humans; a profile change is an entry', () => {
    const room = new QRoom({ 'room-policy/profile': 'mediated-only' });
    room.send(join(P1));
    const human = { 'origin/class': 'human-live', 'origin/speaker': 'ola' };
    expect(room.send(say(P1, 'from my operator', { 'origin/class': 'node-mediated-human' }))).toBe('OK');
    expect(room.send(say(P1, 'me, live', human))).toBe('ORIGIN_NOT_ALLOWED');
    expect(room.send(input(P1, 'swarm/room-policy', { 'room-policy/profile': 'direct-live-allowed' }))).toBe(
      'NOT_AUTHORISED',
    );
    const seq = room.nextSeq;
    expect(
      room.send(input(ASKER, 'swarm/room-policy', { 'room-policy/profile': 'direct-live-allowed' })),
    ).toBe('OK');
    expect(room.send(say(P1, 'me, live', human))).toBe('SECRETARY_REQUIRED');
    expect(
      room.send(
        input(ASKER, 'swarm/room-delegate', {
          'secretary/participant-id': P2.participant,
          'secretary/node-id': 'node:c',
          'close/allowed': false,
        }),
      ),
    ).toBe('OK');
    expect(room.send(say(P1, 'me, live', human))).toBe('OK');
    expect(room.send(say(P1, 'gateway lies', { 'origin/gateway': 'node:z' }))).toBe('ORIGIN_NOT_ALLOWED');
    const meta = projectMetadata(room.state);
    expect(meta['room-policy/changed-by']).toBe(ASKER.participant);
    expect(room.state.profiles.map((p) => p.seq)).toEqual([0, seq]);
    expect(validateAnswerRoomMetadata(meta).ok).toBe(true);
  });

  it('the metadata projection is schema-valid for every profile and scope', () => {
    for (const [scope, mode] of [
      ['private-to-swarm', 'private-to-swarm'],
      ['federation-local', 'federation-local'],
      ['global', 'public-call-for-help'],
    ]) {
      const room = new QRoom({
        'delivery/scope': scope,
        'request/exposure-mode': mode,
        'room-policy/profile': undefined,
      });
      const meta = room.view({ kind: 'observer' }).metadata;
      expect(meta['room-policy/profile']).toBe(scope === 'global' ? 'none' : 'mediated-only');
      expect(validateAnswerRoomMetadata(meta).ok, scope).toBe(true);
    }
    expect(
      validateAnswerRoomMetadata({
        ...projectMetadata(new QRoom().state),
        'operator-direct-live/allowed': true,
      }).ok,
    ).toBe(false);
  });
});

describe('question room: follow-ups, verdicts, summaries, secretary and close', () => {
  it('follow-ups decide whether clarifications are accepted', () => {
    const off = new QRoom({ 'follow-ups/allowed': false });
    off.send(join(P1));
    expect(off.send(say(P1, 'which root?', { 'message/kind': 'follow-up' }))).toBe('FOLLOW_UPS_DISABLED');
    const on = new QRoom();
    on.send(join(P1));
    expect(on.send(say(P1, 'which root?', { 'message/kind': 'follow-up' }))).toBe('OK');
    expect(on.send(say(P1, 'I clarify', { 'message/kind': 'clarification' }))).toBe('NOT_ASKER');
    expect(
      on.send(say(ASKER, 'the federation one', { 'message/kind': 'clarification' }, 'node:pl-wro-full-7f3c')),
    ).toBe('OK');
  });

  it('the asker accepts answers and closes with an accepted summary that exists', () => {
    const room = new QRoom();
    room.send(join(P1));
    const answer = say(P1, 'keep both roots');
    room.send(answer);
    expect(
      room.send(
        input(P1, 'swarm/room-verdict', {
          'verdict/input-id': answer['input/id'],
          'verdict/decision': 'accept',
        }),
      ),
    ).toBe('NOT_ASKER');
    expect(
      room.send(
        input(ASKER, 'swarm/room-verdict', { 'verdict/input-id': 'in:none', 'verdict/decision': 'accept' }),
      ),
    ).toBe('UNKNOWN_MESSAGE');
    expect(
      room.send(
        input(ASKER, 'swarm/room-verdict', {
          'verdict/input-id': answer['input/id'],
          'verdict/decision': 'accept',
        }),
      ),
    ).toBe('OK');
    expect(room.send(summary(P1, 'participant'))).toBe('NOT_AUTHORISED');
    expect(room.send(summary(P1, 'secretary'))).toBe('NOT_AUTHORISED');
    expect(room.send(close(ASKER, 'asker', 'accepted-answer', 'summary:none'))).toBe('UNKNOWN_SUMMARY');
    expect(room.send(summary(ASKER, 'asker'))).toBe('OK');
    expect(room.send(close(ASKER, 'asker', 'accepted-answer', 'summary:1'))).toBe('OK');
    expect(room.state.status).toBe('closed');
    expect(room.state.close?.acceptedSummary).toBe('summary:1');
    expect(room.send(say(P1, 'too late'))).toBe('ROOM_CLOSED');
  });

  it('takeover: a participant becomes secretary only after the asker lapses, then summarises and closes', () => {
    const room = new QRoom({}, { presenceLapseMs: 5 * MIN });
    room.send(join(P1), T0 + 1000);
    room.send(join(P2), T0 + 1000);
    expect(room.send(input(ASKER, 'swarm/room-presence'), T0 + 2 * MIN)).toBe('OK');
    expect(room.send(input(P1, 'swarm/room-takeover'), T0 + 6 * MIN)).toBe('ASKER_PRESENT');
    expect(room.send(input(P1, 'swarm/room-takeover'), T0 + 7 * MIN)).toBe('OK');
    expect(room.send(input(P2, 'swarm/room-takeover'), T0 + 7 * MIN)).toBe('SECRETARY_TAKEN');
    expect(room.state.secretary).toMatchObject({ participant: P1.participant, via: 'lapse' });
    expect(room.send(summary(P1, 'secretary'), T0 + 8 * MIN)).toBe('OK');
    expect(room.send(close(P2, 'secretary'), T0 + 8 * MIN)).toBe('NOT_AUTHORISED');
    expect(room.send(close(P1, 'secretary', 'accepted-answer', 'summary:1'), T0 + 9 * MIN)).toBe('OK');
    expect(room.result()).toMatchObject({
      status: 'closed',
      resolution: 'accepted-answer',
      acceptedSummary: 'summary:1',
    });
  });

  it('a delegated secretary closes only when delegation allows it or the asker has lapsed', () => {
    const room = new QRoom({}, { presenceLapseMs: 5 * MIN });
    const delegate = (allowed: boolean) =>
      input(ASKER, 'swarm/room-delegate', {
        'secretary/participant-id': P2.participant,
        'secretary/node-id': 'node:c',
        'close/allowed': allowed,
      });
    room.send(delegate(false), T0 + MIN);
    expect(room.send(close(P2, 'secretary'), T0 + 2 * MIN)).toBe('ASKER_PRESENT');
    expect(room.send(close(P2, 'secretary'), T0 + 7 * MIN)).toBe('OK');
    const allowed = new QRoom();
    allowed.send(delegate(true), T0 + MIN);
    expect(allowed.send(close(P2, 'secretary', 'handed-off'), T0 + 2 * MIN)).toBe('OK');
  });

  it('expires at created-at + ttl-sec in tick(), and refuses input at the deadline before the tick', () => {
    const room = new QRoom();
    const deadline = Date.parse('2026-03-22T18:10:00Z') + 1800_000;
    expect(room.protocol.deadline(room.state)).toBe(deadline);
    expect(room.protocol.tick(room.state, deadline - 1, 1)).toBeNull();
    room.send(join(P1));
    expect(room.send(say(P1, 'late'), deadline)).toBe('QUESTION_EXPIRED');
    room.tick(deadline);
    expect(room.state.status).toBe('expired');
    expect(room.protocol.tick(room.state, deadline, 9)).toBeNull();
    expect(room.result()).toMatchObject({ status: 'expired', resolution: 'expired' });
  });
});

describe('question room: replicated fold', () => {
  it('two nodes folding one stream reach one state, and a refolded log the same', () => {
    const stream = [
      join(P1),
      join(P2),
      say(P1, 'a'),
      say(P2, 'b'),
      summary(ASKER, 'asker'),
      close(ASKER, 'asker'),
    ];
    const a = new QRoom();
    const b = new QRoom();
    for (const m of stream) a.send(m);
    for (const m of stream) b.send(structuredClone(m));
    expect(canonicalize(a.state)).toBe(canonicalize(b.state));
    expect(a.state.messages.map((m) => m.text)).toEqual(['a', 'b']);
    expect(QID).toBe(a.state.question.id);
    expect(T0).toBeLessThan(a.state.question.deadline);
  });
});
