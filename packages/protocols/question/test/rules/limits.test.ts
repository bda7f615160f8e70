// The seed's room limits (docs/swarm.md "Limits"): room size (ROOM_FULL), summary frequency
// (SUMMARY_TOO_SOON, a final summary never held back) and the TTL's lower bound (TTL_TOO_SHORT).
import { describe, expect, it } from 'vitest';
import { countersign } from '../../rules/federation.ts';
import { admitQuestion } from '../../rules/ingest.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { type Key, key, signedEnvelope, T0, TRUST } from './fixtures.ts';
import { ASKER, FED, join, NODE_KEYS, QID, QRoom } from './room-harness.ts';

const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'OK' : r.error?.code);

let n = 0;
/** The asker's summary, `status` intermediate or final, signed at T0 + `at`. */
function askerSummary(status: 'intermediate' | 'final', at: number) {
  n += 1;
  const body = {
    'schema/v': 1,
    type: 'swarm/question-summary',
    'question/id': QID,
    'summary/id': `summary:${n}`,
    'created-at': new Date(T0 + at).toISOString(),
    'author/node-id': 'node:pl-wro-full-7f3c',
    'author/participant-id': ASKER.participant,
    'sender/federation-id': FED,
    'author/role': 'asker',
    status,
    'content/facts': [`fact ${n}`],
    'content/hypotheses': [],
    'content/recommendations': [],
    'content/uncertainty': 0.5,
  };
  const gateway = NODE_KEYS['node:pl-wro-full-7f3c'] as Key;
  return countersign(signObject(body, SIGNATURE_DOMAINS.summary, ASKER.seed), gateway.seed);
}

describe('room limits', () => {
  it('room size: the room admits maxParticipants joins, one more is ROOM_FULL', () => {
    const room = new QRoom({}, { maxParticipants: 2 });
    expect(room.send(join(key(41)))).toBe('OK');
    expect(room.send(join(key(42)))).toBe('OK');
    const third = room.send(join(key(43)));
    expect(third).toBe('ROOM_FULL');
    // Without the setting (rooms opened before it) there is no limit.
    const open = new QRoom();
    for (const k of [41, 42, 43]) expect(open.send(join(key(k)))).toBe('OK');
  });

  it('summary frequency: one intermediate summary per interval and author; a final one always', () => {
    const room = new QRoom({}, { summaryIntervalMs: 60_000 });
    expect(room.send(askerSummary('intermediate', 0), T0 + 1000)).toBe('OK');
    expect(room.send(askerSummary('intermediate', 1000), T0 + 30_000)).toBe('SUMMARY_TOO_SOON');
    expect(room.send(askerSummary('final', 2000), T0 + 31_000)).toBe('OK');
    expect(room.send(askerSummary('intermediate', 3000), T0 + 61_000)).toBe('SUMMARY_TOO_SOON');
    expect(room.send(askerSummary('intermediate', 4000), T0 + 91_000)).toBe('OK');
  });

  it('TTL bounds: shorter than the federation minimum is TTL_TOO_SHORT (default 1 s)', () => {
    const opts = { now: T0 + 1000, trust: TRUST };
    expect(code(admitQuestion(signedEnvelope({ 'ttl-sec': 30 }), opts))).toBe('OK');
    expect(code(admitQuestion(signedEnvelope({ 'ttl-sec': 30 }), { ...opts, minTtlSec: 60 }))).toBe(
      'TTL_TOO_SHORT',
    );
  });
});
