// Which key goes where: a profile's key reaches only the endpoint it was configured for. The
// ModelServer here is a MOCK OF THE PROVIDER API (OpenAI / Anthropic wire) on 127.0.0.1: it records
// the Authorization header each request carried, so the tests see exactly what left the process.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CreateProviderOptions,
  createProvider,
  ProviderConfigError,
  redactUrl,
  resolveProvider,
} from '../src/index.ts';
import { ModelServer } from './model-server.ts';

const OPENAI_KEY = 'sk-openai-server-key-0123456789';
const OPENROUTER_KEY = 'sk-or-server-key-0123456789';
const OWN_KEY = 'sk-own-endpoint-key-0123456789';
const Answer = z.object({ answer: z.string() }).strict();

let mock: ModelServer;
beforeAll(async () => {
  mock = await ModelServer.start();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

/** One call through the provider; returns the Authorization header the mock provider API got. */
async function authSent(opts: CreateProviderOptions): Promise<string | undefined> {
  mock.enqueue({ reply: { answer: 'yes' } });
  const p = createProvider({ model: 'm', config: { retry: { maxRetries: 0 } }, ...opts });
  const out = await p.call({ schemaName: 'answer', schema: Answer, system: 's', prompt: 'p' });
  expect(out.ok, JSON.stringify(out.record.error)).toBe(true);
  expect(mock.requests).toHaveLength(1);
  const h = mock.requests[0]!.headers;
  return (h.authorization ?? h['x-api-key']) as string | undefined;
}

const serverEnv = { OPENAI_API_KEY: OPENAI_KEY, OPENROUTER_API_KEY: OPENROUTER_KEY };

describe('provider keys go only to their own endpoint', () => {
  it.each([
    ['openai', OPENAI_KEY],
    ['openrouter', OPENROUTER_KEY],
  ])('%s: an overridden base URL does not receive the profile key', async (provider, key) => {
    const got = await authSent({ provider, baseUrl: mock.openaiBaseUrl, env: serverEnv });
    expect(got).toBeDefined();
    expect(got).not.toContain(key);
    expect(
      resolveProvider({ provider, model: 'm', baseUrl: mock.openaiBaseUrl, env: serverEnv }),
    ).toMatchObject({ keySource: null });
  });

  it('DB8_API_KEY stays home too', async () => {
    const got = await authSent({
      provider: 'openai',
      baseUrl: mock.openaiBaseUrl,
      env: { ...serverEnv, DB8_API_KEY: OWN_KEY },
    });
    expect(got).not.toContain(OWN_KEY);
    expect(got).not.toContain(OPENAI_KEY);
  });

  it('another URL gets the key named for it, and only that one', async () => {
    const env = { ...serverEnv, LAB_KEY: OWN_KEY };
    expect(
      await authSent({ provider: 'openai', baseUrl: mock.openaiBaseUrl, apiKeyEnv: 'LAB_KEY', env }),
    ).toBe(`Bearer ${OWN_KEY}`);
    expect(
      resolveProvider({
        provider: 'openai',
        model: 'm',
        baseUrl: mock.openaiBaseUrl,
        apiKeyEnv: 'LAB_KEY',
        env,
      }),
    ).toMatchObject({ keySource: 'env:LAB_KEY' });
    expect(() => resolveProvider({ provider: 'openai', model: 'm', apiKeyEnv: 'not a name', env })).toThrow(
      ProviderConfigError,
    );
  });

  it('an endpoint the operator configured (environment, config profile) gets its key', async () => {
    // OPENAI_BASE_URL is the operator's: the key goes with it.
    expect(
      await authSent({ provider: 'openai', env: { ...serverEnv, OPENAI_BASE_URL: mock.openaiBaseUrl } }),
    ).toBe(`Bearer ${OPENAI_KEY}`);
    mock.reset();
    const config = {
      retry: { maxRetries: 0 },
      profiles: { lab: { kind: 'openai' as const, baseUrl: mock.openaiBaseUrl, apiKeyEnv: 'LAB_KEY' } },
    };
    // The same origin with another path is the same server: still its key.
    expect(
      await authSent({
        provider: 'lab',
        config,
        baseUrl: `${mock.url}/v1/`,
        env: { LAB_KEY: OWN_KEY },
      }),
    ).toBe(`Bearer ${OWN_KEY}`);
  });
});

describe('credentials in a URL', () => {
  it('redactUrl hides user, password and every query value, and keeps the shape', () => {
    expect(redactUrl('https://alice:s3cret-pass@llm.example.com:8443/v1?api-key=abc123def456&v=2#frag')).toBe(
      'https://[redacted]@llm.example.com:8443/v1?api-key=[redacted]&v=[redacted]',
    );
    expect(redactUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
    expect(redactUrl('not a url')).toBe('[invalid url]');
  });

  it("a password in the base URL never shows in the provider's records", async () => {
    const secret = 'query-secret-0123456789';
    const p = createProvider({
      provider: 'openai',
      model: 'm',
      baseUrl: mock.openaiBaseUrl.replace('http://', `http://user:${secret}@`),
      config: { retry: { maxRetries: 0 } },
      env: {},
    });
    const out = await p.call({ schemaName: 'answer', schema: Answer, system: 's', prompt: 'p' });
    expect(out.ok).toBe(false);
    // fetch refuses a URL with credentials and quotes it in the error: the record keeps the quote, not the secret.
    expect(out.record.error?.message).toContain('[redacted]');
    expect(JSON.stringify(out.record)).not.toContain(secret);
  });
});
