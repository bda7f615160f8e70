// The swarm's model agents against a real local model server: the secretary's summary comes back
// validated (facts, hypotheses, recommendations, uncertainty) with its prompt built from the room;
// a garbage reply (and garbage again on the repair request) and an out-of-range uncertainty are
// failures with a call record, never content.

import { Budget, createProvider } from '@db8/agents';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participantAnswer, type RoomDigest, secretarySummary } from '../../agent/index.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server?.close();
});

const provider = (wire: 'openai' | 'anthropic') =>
  createProvider({
    provider: wire,
    model: `${wire}-model`,
    baseUrl: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
    env: { OPENAI_API_KEY: 'sk-test-key-123456', ANTHROPIC_API_KEY: 'sk-ant-test-123456' },
    // A safety limit only: the local server answers at once, however loaded the machine.
    config: { timeoutMs: 120_000, retry: { maxRetries: 0, baseDelayMs: 1 } },
    budget: new Budget(),
  });

const room: RoomDigest = {
  question: { text: 'Is JCS enough?', tags: ['json'] },
  messages: [
    { kind: 'answer', speaker: 'model:x', origin: 'node-generated', text: 'Only with NFC strings.' },
  ],
  summaries: [],
};

describe('swarm model agents', () => {
  it('the secretary summarises the room as facts, hypotheses, recommendations, uncertainty', async () => {
    const content = {
      facts: ['JCS fixes order'],
      hypotheses: ['NFC needed'],
      recommendations: ['normalise'],
      uncertainty: 0.3,
    };
    server.enqueue({ reply: content });
    const out = await secretarySummary(room, provider('anthropic'));
    expect(out.ok && out.value).toEqual(content);
    expect(out.record.ok).toBe(true);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain('Only with NFC strings.');
  });

  it('garbage or out-of-range output is a recorded failure, never content', async () => {
    server.enqueue({ replyText: 'it is probably fine' }, { replyText: 'still prose' });
    const g = await secretarySummary(room, provider('openai'));
    expect(g.ok).toBe(false);
    expect(!g.ok && g.error.code).toBe('invalid_output');
    expect(g.record.ok).toBe(false);

    const bad = { facts: [], hypotheses: [], recommendations: [], uncertainty: 7 };
    server.enqueue({ reply: bad }, { reply: bad });
    const r = await secretarySummary(room, provider('openai'));
    expect(!r.ok && r.error.code).toBe('invalid_output');
  });

  it('a participant answers in text; an empty answer fails', async () => {
    server.enqueue({ reply: { text: 'Add NFC.' } });
    const a = await participantAnswer(room, provider('openai'), { persona: 'a terse engineer' });
    expect(a.ok && a.value.text).toBe('Add NFC.');
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain('a terse engineer');
    server.enqueue({ reply: { text: '' } }, { reply: { text: '' } });
    const e = await participantAnswer(room, provider('anthropic'));
    expect(e.ok).toBe(false);
  });
});
