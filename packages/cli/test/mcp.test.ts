// `db8 mcp`: the real CLI spawned as an MCP client launches it (stdio), bridged to a real server's
// /mcp: the SDK's own client lists the tools and acts once; a raw JSON-RPC client (lines on the
// child's stdin) checks parse errors, requests sent before initialize is answered, and the
// documented Claude Desktop config run from another directory; no credential fails on stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function agentKey(): Promise<string> {
  const reg = await fetch(`${server.url}/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'stdio-agent' }),
  });
  return ((await reg.json()) as { api_key: string }).api_key;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages are inspected freely by the test.
type Msg = Record<string, any>;

/** A raw JSON-RPC client: writes lines to the child's stdin, reads its stdout line by line. */
function rawClient(command: string, args: string[], opts: { cwd: string; env: Record<string, string> }) {
  const child = spawn(command, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
  const got: Msg[] = [];
  let pending = '';
  let stderr = '';
  let wake = () => {};
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  child.stdout.on('data', (d) => {
    pending += String(d);
    for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
      got.push(JSON.parse(pending.slice(0, i)) as Msg);
      pending = pending.slice(i + 1);
    }
    wake();
  });
  return {
    /** Every message so far, in arrival order. */
    received: got,
    write: (text: string) => child.stdin.write(text),
    /** The first message (in arrival order) that `match` accepts; fails if the child exits first. */
    async next(match: (m: Msg) => boolean): Promise<Msg> {
      for (;;) {
        const m = got.find(match);
        if (m) return m;
        const woke = new Promise<void>((resolve) => {
          wake = resolve;
        });
        const code = await Promise.race([woke.then(() => 'more' as const), exited]);
        if (code !== 'more') throw new Error(`db8 mcp exited (${code}): ${stderr}`);
      }
    },
    async close(): Promise<string> {
      child.stdin.end();
      await exited;
      return stderr;
    },
  };
}

const line = (m: object) => `${JSON.stringify(m)}\n`;
const initialize = (id: number) =>
  line({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
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

describe('db8 mcp (stdio bridge)', () => {
  it('lists the server tools and acts once for the seat it joined', async () => {
    const key = await agentKey();
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

  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and goes on', async () => {
    const c = rawClient(process.execPath, [BIN, 'mcp', '--url', server.url], {
      cwd: dir,
      env: env({ DB8_API_KEY: await agentKey() }),
    });
    c.write(`this is not json\n{"hello":"world"}\n${initialize(1)}`);
    expect((await c.next((m) => m.id === 1)).result.serverInfo.name).toBe('db8');
    // Answered in order, before the initialize that followed them reached the server and back.
    expect(c.received).toMatchObject([
      { jsonrpc: '2.0', id: null, error: { code: -32700 } },
      { jsonrpc: '2.0', id: null, error: { code: -32600 } },
      { jsonrpc: '2.0', id: 1 },
    ]);
    expect(await c.close()).toBe('');
  });

  it('holds requests sent before the initialize answer arrives, then forwards them in order', async () => {
    const c = rawClient(process.execPath, [BIN, 'mcp', '--url', server.url], {
      cwd: dir,
      env: env({ DB8_API_KEY: await agentKey() }),
    });
    // One write: tools/list and ping leave the host before the server has answered initialize.
    c.write(
      initialize(1) +
        line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) +
        line({ jsonrpc: '2.0', id: 3, method: 'ping' }),
    );
    expect((await c.next((m) => m.id === 1)).result.protocolVersion).toBe('2025-06-18');
    const tools = await c.next((m) => m.id === 2);
    expect(tools.error).toBeUndefined();
    expect(tools.result.tools.map((t: Msg) => t.name)).toContain('list_rooms');
    expect(await c.next((m) => m.id === 3)).toMatchObject({ result: {} });
    expect(await c.close()).toBe('');
  });

  it('runs the Claude Desktop config docs/mcp.md gives, started from another directory', async () => {
    const docs = readFileSync(join(REPO, 'docs', 'mcp.md'), 'utf8');
    const block = /```json\n(\{\s*"mcpServers"[\s\S]*?)```/.exec(docs)?.[1];
    expect(block, 'docs/mcp.md has an mcpServers block').toBeDefined();
    const entry = (JSON.parse(block!) as { mcpServers: { db8: Msg } }).mcpServers.db8;
    // Nothing that asks a package registry for "db8" (not ours): a path into the checkout.
    expect(entry.command).not.toMatch(/^(npx|npm|pnpm|yarn|bunx)$/);
    const args = (entry.args as string[]).map((a) =>
      a.replace('/absolute/path/to/db8', REPO).replace('http://127.0.0.1:8787', server.url),
    );
    expect(args[0]).toBe(join(REPO, 'packages', 'app', 'bin', 'db8.js'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'db8-mcp-host-'));
    try {
      const c = rawClient(entry.command, args, {
        cwd: elsewhere,
        env: env({ ...entry.env, DB8_API_KEY: await agentKey() }),
      });
      c.write(initialize(1));
      expect((await c.next((m) => m.id === 1)).result.serverInfo.name).toBe('db8');
      c.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      c.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      expect((await c.next((m) => m.id === 2)).result.tools.map((t: Msg) => t.name)).toContain('join_room');
      expect(await c.close()).toBe('');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
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
    // The host config names this Node and this CLI by absolute path, never `npx db8`.
    expect(r.stdout).toContain(`"command": ${JSON.stringify(process.execPath)}`);
    expect(r.stdout).not.toContain('npx');
  });
});
