import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CloseSchema, closeJsonSchema, SummarySchema, summaryJsonSchema } from '../../rules/events.ts';
import { admitRoomInput } from '../../rules/ingest.ts';
import { toFlat } from '../../rules/normalize.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { ASKER, T0, TRUST } from './fixtures.ts';
import { close, summary } from './room-harness.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const summaryJs = ajv.compile(summaryJsonSchema());
const closeJs = ajv.compile(closeJsonSchema());

describe("db8's summary and close schemas", () => {
  it('the served JSON Schemas and the zod schemas agree, valid and invalid', () => {
    const s = summary(ASKER, 'secretary');
    const c = close(ASKER, 'asker', 'accepted-answer', 'summary:1');
    const cases: Array<[unknown, unknown]> = [
      [s, true],
      [{ ...s, 'content/uncertainty': 1.5 }, false],
      [{ ...s, 'author/role': 'observer' }, false],
      [{ ...s, status: 'draft' }, false],
      [{ ...s, extra: 1 }, false],
      [c, true],
      [{ ...c, resolution: 'closed' }, false], // accepted-summary/id only with accepted-answer
      [{ ...c, 'accepted-summary/id': undefined }, false],
      [close(ASKER, 'asker', 'expired'), true],
      [close(ASKER, 'participant'), false],
    ];
    for (const [value, valid] of cases) {
      const v = JSON.parse(JSON.stringify(value));
      const zod = (v.type === 'swarm/question-summary' ? SummarySchema : CloseSchema).safeParse(v).success;
      const js = v.type === 'swarm/question-summary' ? summaryJs(v) : closeJs(v);
      expect([zod, js], JSON.stringify(v).slice(0, 120)).toEqual([valid, valid]);
    }
  });

  it("normalises the proposal's nested summary and close, signed over the flat form", () => {
    const nested = {
      type: 'swarm/question-summary',
      'question/id': 'question:01K0FEDPROC1',
      'summary/id': 'summary:01JNY7C6D57CVS4CC0W4A3W6XQ',
      'created-at': '2026-03-22T18:11:00Z',
      author: {
        'node/id': 'node:pl-wro-secretary-2',
        'participant/id': ASKER.participant,
        role: 'secretary',
      },
      status: 'intermediate',
      content: { facts: ['a'], hypotheses: ['b'], recommendations: ['c'], uncertainty: 0.23 },
    };
    const sig = signObject(
      toFlat(nested) as Record<string, unknown>,
      SIGNATURE_DOMAINS.summary,
      ASKER.seed,
    ).signature;
    const r = admitRoomInput({ ...nested, signature: sig }, { now: T0 + 120_000, trust: TRUST });
    expect(r.ok && r.value.type).toBe('swarm/question-summary');
    const c = toFlat({
      type: 'swarm/question-close',
      'question/id': 'q',
      'created-at': '2026-03-22T18:11:00Z',
      'closed-by': { 'node/id': 'node:a', 'participant/id': ASKER.participant, role: 'asker' },
      resolution: 'accepted-answer',
      'accepted-summary/id': 'summary:1',
    }) as Record<string, unknown>;
    expect(closeJs({ ...c, signature: { alg: 'ed25519', value: 'base64url:x' } })).toBe(true);
  });

  it('a summary signature does not verify as a close or question (domains differ)', () => {
    const s = summary(ASKER, 'asker');
    const wrong = signObject({ ...s }, SIGNATURE_DOMAINS.room, ASKER.seed);
    const r = admitRoomInput(wrong, { now: T0, trust: TRUST });
    expect(!r.ok && r.error.code).toBe('BAD_SIGNATURE');
  });
});
