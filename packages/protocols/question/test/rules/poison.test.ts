// Issue 23, "no poison message": one signed envelope must never put NaN into a room, outlive the
// stream, slip a dead certificate in by backdating, or carry an id that breaks a header or a line.
import { LocalRoom, parseRfc3339 } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { questionConfig } from '../../rules/config.ts';
import { admitQuestion, admitRoomInput } from '../../rules/ingest.ts';
import { question } from '../../rules/protocol.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { ASKER, key, nymCertificate, nymEnvelope, signedEnvelope, T0, TRUST } from './fixtures.ts';
import { input, join, summary } from './room-harness.ts';

const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'OK' : r.error?.code);
const DAY = 86_400_000;

describe('time fields: one strict RFC 3339 parser, no NaN', () => {
  it('a leap-second created-at is normalised, so a ten-year-old question is still expired', () => {
    const leap = signedEnvelope({ 'created-at': '2016-12-31T23:59:60Z' });
    expect(code(admitQuestion(leap, { now: T0, trust: TRUST }))).toBe('QUESTION_EXPIRED');
    // A fresh one opens a room whose every time is a number.
    const fresh = signedEnvelope({ 'created-at': '2026-03-22T23:59:60Z' });
    const at = Date.UTC(2026, 2, 22, 23, 59, 59, 999);
    expect(code(admitQuestion(fresh, { now: at + 1000, trust: TRUST }))).toBe('OK');
    const cfg = questionConfig(fresh);
    if (!cfg.ok) throw new Error(JSON.stringify(cfg.error));
    const room = new LocalRoom({
      protocol: question,
      config: cfg.value,
      seed: 'ab'.repeat(32),
      now: at + 1000,
    });
    const q = room.view({ kind: 'observer' }).question;
    expect([q.createdAt, q.deadline]).toEqual([at, at + 1800_000]);
    expect(room.view({ kind: 'observer' }).metadata['room-policy/effective-at']).toBe(
      '2026-03-22T23:59:59.999Z',
    );
  });

  it('a time the parser refuses is SCHEMA_INVALID at the gate and in the config, never NaN', () => {
    for (const t of ['2026-03-22 18:10:00Z', '2026-03-22T12:00:60Z', '2026-03-22T18:10:00+0100']) {
      const env = signedEnvelope({ 'created-at': t });
      expect(code(admitQuestion(env, { now: T0, trust: TRUST })), t).toBe('SCHEMA_INVALID');
      expect(code(questionConfig(env)), t).toBe('SCHEMA_INVALID');
    }
    const roomInput = input(key(11), 'swarm/room-presence', { 'created-at': '2026-03-22T12:00:60Z' });
    expect(code(admitRoomInput(roomInput, { now: T0, trust: TRUST }))).toBe('SCHEMA_INVALID');
  });

  it('a nym certificate past leniency-until with a leap-second end is expired', () => {
    const cert = nymCertificate({ 'leniency-until': '2026-04-18T23:59:60Z' });
    const late = nymEnvelope({ 'created-at': '2026-04-25T00:00:00Z' }, cert);
    const trust = { ...TRUST, allowLeniency: true };
    expect(code(admitQuestion(late, { now: Date.UTC(2026, 3, 25, 0, 1), trust }))).toBe('CERT_EXPIRED');
  });

  it('a certificate that expired before receipt is refused even when the envelope is backdated', () => {
    // Valid at created-at (2026-03-28T15:58Z), dead by leniency-until (2026-04-18) at receipt.
    const backdated = nymEnvelope();
    const created = parseRfc3339('2026-03-28T15:58:00Z') as number;
    const opts = { trust: { ...TRUST, allowLeniency: true }, maxTtlSec: 90 * 86_400 };
    expect(code(admitQuestion(backdated, { ...opts, now: created + 60_000 }))).toBe('OK');
    const inLeniency = Date.UTC(2026, 3, 10);
    expect(code(admitQuestion(nymEnvelope({ 'ttl-sec': 60 * 86_400 }), { ...opts, now: inLeniency }))).toBe(
      'OK',
    );
    const dead = Date.UTC(2026, 3, 19);
    const long = nymEnvelope({ 'ttl-sec': 60 * 86_400 });
    expect(code(admitQuestion(long, { ...opts, now: dead }))).toBe('CERT_EXPIRED');
    // Past expires-at without leniency: refused at receipt too.
    expect(code(admitQuestion(long, { ...opts, trust: TRUST, now: inLeniency }))).toBe('CERT_EXPIRED');
  });
});

describe('bounds at ingest: the stream must outlive every question', () => {
  const opts = { now: T0 + 1000, trust: TRUST };

  it('refuses a TTL past the federation limit (default 7 days) and an absurd one everywhere', () => {
    expect(code(admitQuestion(signedEnvelope({ 'ttl-sec': 7 * 86_400 }), opts))).toBe('OK');
    expect(code(admitQuestion(signedEnvelope({ 'ttl-sec': 30 * 86_400 }), opts))).toBe('TTL_TOO_LONG');
    expect(
      code(admitQuestion(signedEnvelope({ 'ttl-sec': 30 * 86_400 }), { ...opts, maxTtlSec: 31 * 86_400 })),
    ).toBe('OK');
    expect(code(admitQuestion(signedEnvelope({ 'ttl-sec': 1e300 }), opts))).toBe('TTL_TOO_LONG');
    expect(code(questionConfig(signedEnvelope({ 'ttl-sec': 1e300 })))).toBe('TTL_TOO_LONG');
  });

  it('a deadline past now + the limit is refused even when the TTL alone fits', () => {
    const future = new Date(T0 + 4 * 60_000).toISOString(); // within the 5-min skew
    const env = signedEnvelope({ 'created-at': future, 'ttl-sec': 7 * 86_400 });
    expect(code(admitQuestion(env, opts))).toBe('TTL_TOO_LONG');
  });

  it('a created-at from year 0001 is expired; a room input older than the limit is TOO_OLD', () => {
    const ancient = signedEnvelope({ 'created-at': '0001-01-01T00:00:00Z', 'ttl-sec': 7 * 86_400 });
    expect(code(admitQuestion(ancient, opts))).toBe('QUESTION_EXPIRED');
    const old = input(key(11), 'swarm/room-presence', { 'created-at': '0001-01-01T00:00:00Z' });
    expect(code(admitRoomInput(old, opts))).toBe('TOO_OLD');
    const week = input(key(11), 'swarm/room-presence', {
      'created-at': new Date(T0 - 8 * DAY).toISOString(),
    });
    expect(code(admitRoomInput(week, opts))).toBe('TOO_OLD');
    expect(code(admitRoomInput(week, { ...opts, maxTtlSec: 9 * 86_400 }))).toBe('OK');
  });
});

describe('ids at the edge', () => {
  const opts = { now: T0 + 1000, trust: TRUST };

  it('refuses CR, LF, NUL and other controls in every id of an envelope', () => {
    for (const bad of ['q\r\nX-Evil: 1', 'q\nx', 'q\u0000', 'q\u0085', 'q\u2028']) {
      const env = signedEnvelope({ 'question/id': bad, 'delivery/response-channel-id': bad });
      expect(code(admitQuestion(env, opts)), JSON.stringify(bad)).toBe('SCHEMA_INVALID');
      expect(code(admitQuestion(signedEnvelope({ 'sender/node-id': bad }), opts))).toBe('SCHEMA_INVALID');
      expect(code(admitQuestion(signedEnvelope({ 'question/tags': ['ok', bad] }), opts))).toBe(
        'SCHEMA_INVALID',
      );
    }
  });

  it('refuses controls in room-input, summary and speaker ids', () => {
    const p = key(11);
    expect(code(admitRoomInput(input(p, 'swarm/room-presence', { 'input/id': 'a\r\nb' }), opts))).toBe(
      'SCHEMA_INVALID',
    );
    const s = summary(p, 'participant', 'summary\n1');
    expect(code(admitRoomInput(s, opts))).toBe('SCHEMA_INVALID');
    expect(code(admitRoomInput(join(p, { 'responder/tags': ['t\u0000'] }), opts))).toBe('SCHEMA_INVALID');
  });

  it('the asker must be participant:did:key:… exactly (evil:did:key:… could never summarise or close)', () => {
    const evil = `evil:${ASKER.did}`;
    const env = signObject(
      { ...signedEnvelope(), 'sender/participant-id': evil, signature: undefined },
      SIGNATURE_DOMAINS.question,
      ASKER.seed,
    );
    delete (env as Record<string, unknown>).signature;
    const signed = signObject(env, SIGNATURE_DOMAINS.question, ASKER.seed);
    expect(code(admitQuestion(signed, opts))).toBe('SCHEMA_INVALID');
    expect(code(questionConfig(signed))).toBe('SCHEMA_INVALID');
    expect(code(admitQuestion(signedEnvelope(), opts))).toBe('OK');
  });
});
