import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteText, parseCheckpoint } from '@db8/core';
import { Db8Client } from '@db8/sdk';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, describe, expect, it } from 'vitest';
import { linkHost, resolveConfig } from '../src/config.ts';
import { logOriginFor } from '../src/keys/index.ts';
import { AUCTION } from './routes-fixtures.ts';

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(extra: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'db8-links-'));
  dirs.push(dataDir);
  const s = await startServer({
    port: 0,
    dataDir,
    logLevel: 'silent',
    adminLink: true,
    env: false,
    print: () => {},
    ...extra,
  });
  servers.push(s);
  return s;
}

/** Each starts PGlite (seconds on a loaded 2-core machine). */
const SLOW = 120_000;

describe('links with port 0', () => {
  it(
    'ws_url, skill_doc_url, invite links and the skill doc name the real port; the checkpoint origin names the key',
    async () => {
      const s = await start();
      const addr = s.app.server.address();
      const port = addr && typeof addr === 'object' ? addr.port : 0;
      expect(port).toBeGreaterThan(0);
      const base = `http://127.0.0.1:${port}`;
      expect(s.url).toBe(base);
      expect(s.app.db8.config.publicUrl).toBe(base);

      const api = new Db8Client({ baseUrl: s.url });
      const admin = api.withToken((await api.adminLogin(s.adminLink!.split('#token=')[1]!)).token);
      const room = await admin.createRoom({ protocol: 'sealed-bid', config: AUCTION });
      const invite = await admin.createInvite(room.room_id, { seat: 'bidder_1' });
      expect(invite.url.startsWith(`${base}/rooms/${room.room_id}/join#invite=`)).toBe(true);

      const agent = await api.registerAgent({ name: 'links' });
      const joined = await api.withToken(agent.api_key).join(room.room_id, { seat: 'bidder_2' });
      expect(joined.ws_url).toBe(`ws://127.0.0.1:${port}/v1/ws`);
      expect(joined.skill_doc_url).toBe(`${base}/skill.md`);

      const sock = await api.withToken(joined.session_token).socket();
      expect(sock.welcome.skill_doc_url).toBe(`${base}/skill.md`);
      sock.close();

      const doc = await (await fetch(`${base}/skill.md`)).text();
      expect(doc).toContain(`ws://127.0.0.1:${port}/v1/ws`);
      expect(doc).not.toMatch(/127\.0\.0\.1:0\b/);
      // Registered by other modules from the same config: the poker table doc says the port too.
      const poker = await (await fetch(`${base}/v1/tables/skill.md`)).text();
      expect(poker).toContain(`127.0.0.1:${port}`);
      expect(poker).not.toMatch(/127\.0\.0\.1:0\b/);

      // The log's signed checkpoints carry the key's origin `db8-<key hash>/room/<id>`, not the port
      // (docs/server.md): a restart on another port or a second node signs the room alike.
      const [cp] = await s.runtime.checkpoints(room.room_id);
      const origin = parseCheckpoint(noteText(cp!.note)).origin;
      expect(origin).toBe(`${logOriginFor(s.runtime.serverKey.publicKey)}/room/${room.room_id}`);
      expect(origin).not.toContain(String(port));
    },
    SLOW,
  );

  it(
    'PUBLIC_BASE_URL still wins, and two servers on port 0 get two ports',
    async () => {
      const a = await start({ publicUrl: 'https://db8.example/' });
      const b = await start();
      expect(a.url).toBe('https://db8.example');
      expect(a.app.db8.wsUrl).toBe('wss://db8.example/v1/ws');
      const port = (s: RunningServer) => (s.app.server.address() as { port: number }).port;
      expect(port(a)).not.toBe(port(b));
      expect(b.url).toBe(`http://127.0.0.1:${port(b)}`);
      expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    },
    SLOW,
  );

  it('link hosts: wildcards become loopback, IPv6 literals are bracketed', () => {
    expect(linkHost('0.0.0.0')).toBe('127.0.0.1');
    expect(linkHost('::')).toBe('127.0.0.1');
    expect(linkHost('::1')).toBe('[::1]');
    expect(linkHost('db8.internal')).toBe('db8.internal');
    expect(resolveConfig({ host: '::1', port: 9 }).publicUrl).toBe('http://[::1]:9');
  });
});
