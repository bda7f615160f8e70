// Configuration: built-in profiles < db8.config.json < environment < explicit choice; keys only
// from the environment and never in what resolveProvider or a provider shows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createProvider,
  Db8ConfigSchema,
  loadConfigFile,
  ProviderConfigError,
  protocolSection,
  resolveProvider,
} from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-providers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('provider configuration', () => {
  it('defaults to the scripted provider', () => {
    expect(resolveProvider({})).toEqual({
      profile: 'scripted',
      kind: 'scripted',
      model: 'scripted:default',
      endpoint: null,
      structuredOutput: null,
      keySource: null,
    });
  });

  it('explicit choice beats the environment, which beats the config file', () => {
    const config = { provider: 'anthropic', model: 'from-file' };
    expect(resolveProvider({ config })).toMatchObject({
      profile: 'anthropic',
      model: 'from-file',
      endpoint: 'https://api.anthropic.com',
    });
    const env = { DB8_PROVIDER: 'openrouter', DB8_MODEL: 'from-env', OPENROUTER_API_KEY: 'or-key-123456789' };
    expect(resolveProvider({ config, env })).toMatchObject({
      profile: 'openrouter',
      kind: 'openai',
      model: 'from-env',
      endpoint: 'https://openrouter.ai/api/v1',
      keySource: 'env:OPENROUTER_API_KEY',
    });
    expect(
      resolveProvider({ config, env, provider: 'openai', model: 'flag', baseUrl: 'http://127.0.0.1:9/v1' }),
    ).toMatchObject({
      profile: 'openai',
      model: 'flag',
      endpoint: 'http://127.0.0.1:9/v1',
      keySource: null, // OPENAI_API_KEY is not set
    });
  });

  it('config profiles add providers and refine built-in ones', () => {
    const config = {
      profiles: {
        lab: {
          kind: 'openai' as const,
          baseUrl: 'http://10.0.0.5:8000/v1',
          model: 'qwen',
          structuredOutput: 'tool' as const,
        },
        anthropic: { kind: 'anthropic' as const, model: 'claude-x' },
      },
    };
    expect(resolveProvider({ config, provider: 'lab' })).toMatchObject({
      kind: 'openai',
      model: 'qwen',
      structuredOutput: 'tool',
    });
    expect(resolveProvider({ config, provider: 'anthropic' })).toMatchObject({
      model: 'claude-x',
      endpoint: 'https://api.anthropic.com',
    });
  });

  it('refuses an unknown profile and a real provider without a model', () => {
    expect(() => resolveProvider({ provider: 'nope' })).toThrow(ProviderConfigError);
    expect(() => resolveProvider({ provider: 'nope' })).toThrow(/known: openai, anthropic/);
    expect(() => resolveProvider({ provider: 'openai' })).toThrow(/no model/);
  });

  it('never shows a key: not in resolveProvider, not in the provider, not in the endpoint', () => {
    const secret = 'sk-live-abcdefghijklmnop';
    const env = { OPENAI_API_KEY: secret, DB8_MODEL: 'm' };
    const r = resolveProvider({
      env,
      provider: 'openai',
      baseUrl: `https://user:${secret}@example.com/v1?key=${secret}`,
    });
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(r.endpoint).toBe('https://example.com/v1');
    const p = createProvider({ env, provider: 'openai' });
    expect(JSON.stringify(p)).not.toContain(secret);
    expect(Object.values(p).join(' ')).not.toContain(secret);
    // DB8_API_KEY overrides the profile's variable.
    expect(
      resolveProvider({ env: { ...env, DB8_API_KEY: 'other-key-123456' }, provider: 'openai' }).keySource,
    ).toBe('env:DB8_API_KEY');
  });

  it('loads and validates db8.config.json; a missing file is an empty config', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        provider: 'ollama',
        model: 'llama3.2',
        timeoutMs: 5000,
        retry: { maxRetries: 1 },
        prices: { 'gpt-4o-*': { inputPerMTok: 2.5, outputPerMTok: 10 } },
        budget: { room: { maxTokens: 100000 }, seat: { maxCalls: 10 } },
        panel: { roles: { Critic: { provider: 'anthropic', model: 'claude-x' } } },
      }),
    );
    const cfg = await loadConfigFile(good);
    expect(protocolSection(cfg, 'panel')?.roles?.Critic).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
    });
    expect(protocolSection(cfg, 'absent')).toBeUndefined();
    // A misspelt setting is not taken for a protocol's section: a section must be `{ roles }`.
    expect(Db8ConfigSchema.safeParse({ timoutMs: 5000 }).success).toBe(false);
    expect(Db8ConfigSchema.safeParse({ panel: { role: {} } }).success).toBe(false);
    expect(await loadConfigFile(join(dir, 'missing.json'))).toEqual({});
    await expect(loadConfigFile(join(dir, 'missing.json'), true)).rejects.toThrow(/cannot read/);
    const withKey = join(dir, 'key.json');
    writeFileSync(withKey, JSON.stringify({ profiles: { x: { kind: 'openai', apiKey: 'sk-in-file' } } }));
    await expect(loadConfigFile(withKey)).rejects.toThrow(/profiles\.x: Unrecognized key/);
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, '{"provider":"a","provider":"b"}');
    await expect(loadConfigFile(dup)).rejects.toThrow(/duplicate/i);
  });

  it('rejects a bad numeric environment override', () => {
    expect(() => createProvider({ env: { DB8_TIMEOUT_MS: 'soon' }, script: [] })).toThrow(/DB8_TIMEOUT_MS/);
  });
});
