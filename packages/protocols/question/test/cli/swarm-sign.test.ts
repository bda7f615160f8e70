// `db8 swarm --key`: what the CLI signs with a user's OpenSSH Ed25519 key passes the gate every
// node runs (question envelope, join, message, summary, close), under the key's participant
// did:key; a changed byte, or the wrong key file, does not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519, formatOpenSshPrivateKey } from '@db8/core';
import { afterAll, describe, expect, it } from 'vitest';
import { modelLabel } from '../../cli/impl.ts';
import { readSigner, signedEnvelope, signedInput } from '../../cli/sign.ts';
import { admitQuestion, admitRoomInput, didKeyFromPublicKey } from '../../rules/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-swarm-sign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seed = new Uint8Array(32).fill(42);
const keyFile = join(dir, 'id_ed25519');
writeFileSync(keyFile, formatOpenSshPrivateKey(seed, 'me@test'));
const opts = { now: Date.now(), trust: { issuers: [] as string[] }, maxBytes: 64 * 1024 };

describe('db8 swarm signing with the user key', () => {
  const s = readSigner(keyFile);

  it('reads the key as its participant did:key', () => {
    expect(s.participant).toBe(`participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`);
  });

  it('signs an envelope the gate admits; a changed field is BAD_SIGNATURE', () => {
    const env = signedEnvelope(
      { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 60, follow_ups: true, languages: ['en'] },
      s,
      'node:a',
      'federation:local',
    );
    const ok = admitQuestion(env, { ...opts, seen: () => false });
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(env['sender/participant-id']).toBe(s.participant);
    expect(env['delivery/response-channel-id']).toBe(env['question/id']);
    const bad = admitQuestion({ ...env, 'question/text': 'Other?' }, { ...opts, seen: () => false });
    expect(bad.ok || bad.error.code).toBe('BAD_SIGNATURE');
  });

  it('carries the answerer filters the CLI sets (models, reputation)', () => {
    const env = signedEnvelope(
      {
        text: 'Q?',
        tags: ['t'],
        scope: 'global',
        ttl_sec: 60,
        follow_ups: true,
        models_require: ['claude'],
        models_exclude: ['gpt-3.5'],
        min_reputation: 0.8,
      },
      s,
      'node:a',
      'federation:local',
    );
    expect(admitQuestion(env, { ...opts, seen: () => false }).ok).toBe(true);
    expect(env).toMatchObject({
      'models/require': ['claude'],
      'models/exclude': ['gpt-3.5'],
      'responder/min-reputation': 0.8,
    });
  });

  it('signs room inputs, summaries and closes in their own domains', () => {
    const drafts = [
      {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      },
      {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': 'A.',
        'origin/class': 'node-generated',
        'origin/speaker': 'me',
      },
      {
        type: 'swarm/question-summary',
        'author/role': 'asker',
        status: 'final',
        'content/facts': ['f'],
        'content/hypotheses': [],
        'content/recommendations': [],
        'content/uncertainty': 0.5,
      },
      { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' },
    ];
    for (const d of drafts) {
      const input = signedInput(d, 'question-1', s, 'node:a');
      const r = admitRoomInput(input, opts);
      expect(r.ok, `${d.type}: ${JSON.stringify(r)}`).toBe(true);
      // Moved to another room, the signature no longer covers it.
      const moved = admitRoomInput({ ...input, 'question/id': 'question-2' }, opts);
      expect(moved.ok || moved.error.code, d.type).toBe('BAD_SIGNATURE');
    }
  });

  it('refuses a file that is not a key', () => {
    const bad = join(dir, 'not-a-key');
    writeFileSync(bad, 'hello');
    expect(() => readSigner(bad)).toThrow(/not an OpenSSH private key/);
    expect(() => readSigner(join(dir, 'missing'))).toThrow(/cannot read/);
  });
});

describe('db8 swarm answer --model: the answer is labelled a model’s', () => {
  it('origin node-generated and speaker model:<provider/id>, unless --origin or --speaker say otherwise', () => {
    expect(modelLabel({ models: ['openai/gpt-5'] }, 'participant:me')).toEqual({
      'origin/class': 'node-generated',
      'origin/speaker': 'model:openai/gpt-5',
    });
    expect(modelLabel({ models: ['model:cli'] })['origin/speaker']).toBe('model:cli');
    expect(modelLabel({ models: [] }, 'participant:me')).toEqual({
      'origin/class': 'node-mediated-human',
      'origin/speaker': 'participant:me',
    });
    expect(modelLabel({ models: ['openai/gpt-5'], origin: 'human-live', speaker: 'ann' })).toEqual({
      'origin/class': 'human-live',
      'origin/speaker': 'ann',
    });
  });
});
