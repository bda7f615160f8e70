// The Matrix bridge's pure parts: the alias mapping (one-to-one, alias-safe), room settings per scope,
// transaction ids derived from entries, and its settings (zod, BAD_CONFIG on a bad one).

import { describe, expect, it } from 'vitest';
import type { QuestionFacts } from '../../rules/index.ts';
import { matrixOptions } from '../../server/bridges/matrix.ts';
import { aliasLocalpart, contentOf, roomSettings, txnIdOf } from '../../server/bridges/matrix-mapping.ts';

const facts = (scope: string): QuestionFacts => ({
  id: 'question:01JX',
  text: 'How?',
  tags: ['trust'],
  scope,
  askerNode: 'node:a',
  asker: 'participant:x',
  createdAt: 0,
  deadline: 600_000,
  followUps: true,
  modelsRequire: [],
  modelsExclude: [],
  minReputation: null,
  languages: [],
});

describe('Matrix mapping', () => {
  it('maps question ids to alias localparts one-to-one, with only alias-safe characters', () => {
    expect(aliasLocalpart('swarm.', 'question:01JX')).toBe('swarm.question=3a01_j_x');
    const ids = [
      'a_b',
      'a__b',
      'A',
      '_a',
      'a:b',
      'a=3ab',
      'a/b',
      'ą',
      'h',
      '=h',
      'x'.repeat(300),
      'y'.repeat(300),
    ];
    const out = ids.map((id) => aliasLocalpart('', id));
    expect(new Set(out).size).toBe(ids.length);
    for (const o of out) {
      expect(o).toMatch(/^[a-z0-9._=-]+$/);
      expect(o.length).toBeLessThanOrEqual(180);
    }
    expect(aliasLocalpart('', 'x'.repeat(300))).toMatch(/^=h[0-9a-f]{64}$/);
  });

  it('creates rooms whose reach matches the scope, observer-only', () => {
    const s = (scope: string) => roomSettings(facts(scope), 'l');
    expect(s('private-to-swarm')).toMatchObject({
      preset: 'private_chat',
      creation_content: { 'm.federate': false },
    });
    expect(s('federation-local')).toMatchObject({
      preset: 'public_chat',
      visibility: 'private',
      creation_content: { 'm.federate': false },
    });
    expect(s('cross-federation')).toMatchObject({
      preset: 'public_chat',
      creation_content: { 'm.federate': true },
    });
    expect(s('global')).toMatchObject({ visibility: 'public', creation_content: { 'm.federate': true } });
    expect(s('global').power_level_content_override).toEqual({ events_default: 50 });
  });

  it('derives transaction ids from the entry, and carries origin class and speaker', () => {
    const message = {
      seq: 7,
      id: 'in-1',
      at: 1,
      kind: 'answer' as const,
      text: 'hi',
      author: 'participant:y',
      origin: 'node-mediated-human' as const,
      speaker: 'human:op',
      gateway: 'node:b',
      verdict: null,
    };
    const e = { kind: 'message' as const, roomId: 'q_1', questionId: 'question:1', message };
    expect(txnIdOf(e)).toBe('db8.q_1.7');
    expect(txnIdOf({ ...e, message: { ...message, seq: 8 } })).toBe('db8.q_1.8');
    expect(contentOf(e)).toMatchObject({
      msgtype: 'm.text',
      'db8.swarm': { kind: 'answer', seq: 7, origin_class: 'node-mediated-human', speaker: 'human:op' },
    });
    expect(
      txnIdOf({ kind: 'close', roomId: 'q_1', questionId: 'question:1', status: 'expired', close: null }),
    ).toBe('db8.q_1.close');
  });

  it('reads its settings from the environment', () => {
    expect(matrixOptions({}, 'node:a')).toBeNull();
    expect(
      matrixOptions({ DB8_SWARM_MATRIX_URL: 'http://127.0.0.1:8008', DB8_SWARM_MATRIX_TOKEN: 't' }, 'node:a'),
    ).toMatchObject({ credentials: { accessToken: 't' }, relay: 'asked', aliasPrefix: 'swarm.' });
    expect(
      matrixOptions(
        {
          DB8_SWARM_MATRIX_URL: 'https://m.example',
          DB8_SWARM_MATRIX_USER: 'bot',
          DB8_SWARM_MATRIX_PASSWORD: 'p',
        },
        'node:a',
      )?.credentials,
    ).toEqual({ user: 'bot', password: 'p', deviceId: 'DB8SWARMBRIDGE' });
    expect(() => matrixOptions({ DB8_SWARM_MATRIX_URL: 'http://x' }, 'n')).toThrow(/BAD_CONFIG|TOKEN/);
    expect(() =>
      matrixOptions({ DB8_SWARM_MATRIX_URL: 'ftp://x', DB8_SWARM_MATRIX_TOKEN: 't' }, 'n'),
    ).toThrow();
    expect(() =>
      matrixOptions(
        { DB8_SWARM_MATRIX_URL: 'http://x', DB8_SWARM_MATRIX_TOKEN: 't', DB8_SWARM_MATRIX_RELAY: 'some' },
        'n',
      ),
    ).toThrow();
  });
});
