import { describe, expect, it } from 'vitest';
import { Db8Client } from '../src/index.ts';

const KEYS = {
  note_vkey: 'db8+0a1b2c3d+AeWvaltd6H3aWQIjyzkeUnIQWQdCGnbp3Px6hAa1cY3y',
  ssh_public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA db8-server',
  identity: 'server@db8.test',
  namespace: 'db8-checkpoint',
  allowed_signers: 'server@db8.test namespaces="db8-checkpoint" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA',
};

function client(body: unknown, seen: Array<{ url: string; init: RequestInit }>) {
  return new Db8Client({
    baseUrl: 'http://x',
    token: 'secret-session',
    fetch: (async (url: string, init?: RequestInit) => {
      seen.push({ url: String(url), init: init ?? {} });
      return new Response(JSON.stringify(body), { status: 200 });
    }) as typeof fetch,
  });
}

describe('Db8Client.keys', () => {
  it('GETs /v1/keys without sending the credential and returns the parsed key', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    await expect(client(KEYS, seen).keys()).resolves.toEqual(KEYS);
    expect(seen[0]!.url).toBe('http://x/v1/keys');
    expect(seen[0]!.init.method).toBe('GET');
    expect((seen[0]!.init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('refuses a body that is not a key (e.g. a note key without its key id)', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    await expect(client({ ...KEYS, note_vkey: 'db8+AAAA' }, seen).keys()).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    });
  });
});
