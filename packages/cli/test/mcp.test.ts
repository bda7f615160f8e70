// `db8 mcp`: the real CLI spawned as an MCP client launches it (stdio), bridged to a real server's
// /mcp: the SDK's own client lists the tools and acts once; no credential fails on stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, spawnDb8 } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-cli-mcp-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: join(dir, 'data'),
    env: false,
    logLevel: 'silent',
    print: () => {},
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The env an MCP host would give the process: no saved login, the key in DB8_API_KEY. */
function env(extra: Record<string, string>): Record<string, string> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !['DB8_URL', 'DB8_API_KEY'].includes(e[0]),
    ),
  );
  return { ...base, DB8_HOME: join(dir, 'home'), ...extra };
}

describe('db8 mcp (stdio bridge)', { timeout: 60_000 }, () => {
  it('lists the server tools and acts once for the seat it joined', async () => {
    const reg = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stdio-agent' }),
    });
    const key = ((await reg.json()) as { api_key: string }).api_key;
    const room = await server.runtime.createRoom({
      protocol: 'sealed-bid',
      config: {
        item: 'lamp',
        bidders: 2,
        reservePrice: 10,
        biddingWindowMs: 60_000,
        revealWindowMs: 60_000,
        rule: 'first-price',
      },
    });

    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--url', server.url],
      env: env({ DB8_API_KEY: key }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => stderr.push(String(d)));
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['list_rooms', 'join_room', 'view_room', 'wait', 'act_poker']),
      );

      const joined = await client.callTool({ name: 'join_room', arguments: { room_id: room.id } });
      expect(joined.isError, JSON.stringify(joined.content)).toBeFalsy();
      const seat = (joined.structuredContent as { seat: string }).seat;
      expect(seat).toBe('bidder_1');

      const ack = await client.callTool({
        name: 'act_sealed-bid',
        arguments: { room_id: room.id, action: { type: 'bid', amount: 25 } },
      });
      expect(ack.isError, JSON.stringify(ack.content)).toBeFalsy();
      const seq = (ack.structuredContent as { seq: number }).seq;
      // The bid is in the server's log, as that seat's entry.
      const entries = await server.runtime.entries(room.id, { kind: 'admin' }, seq, 1);
      expect(entries[0]).toMatchObject({ seq, actor: seat });
      expect(JSON.stringify(entries[0])).toContain('"amount":25');
    } finally {
      await client.close();
    }
    expect(stderr.join('')).toBe('');
  });

  it('without any credential it says how to log in, on stderr, and exits non-zero', async () => {
    const prev = { home: process.env.DB8_HOME, key: process.env.DB8_API_KEY };
    const r = await new Promise<Awaited<ReturnType<typeof spawnDb8>>>((resolve) => {
      process.env.DB8_HOME = join(dir, 'nobody');
      delete process.env.DB8_API_KEY;
      spawnDb8(['mcp', '--url', server.url], dir).then(resolve);
    }).finally(() => {
      if (prev.home === undefined) delete process.env.DB8_HOME;
      else process.env.DB8_HOME = prev.home;
      if (prev.key !== undefined) process.env.DB8_API_KEY = prev.key;
    });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not logged in to .*db8 login --api-key/);
  });

  it('--help names the tools and how to configure an MCP host', async () => {
    const r = await spawnDb8(['mcp', '--help'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/list_rooms.*join_room.*view_room.*wait.*act_<protocol>/s);
    expect(r.stdout).toContain('DB8_API_KEY');
    expect(r.stdout).toContain('mcpServers');
  });
});
