// One db8 node of a swarm test: a real server (startServer) on its own embedded store and node key,
// following the swarm subjects of one test run (a unique subject prefix and stream on the shared
// nats-server), with an admin session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from 'db8/server';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export interface SwarmRun {
  prefix: string;
  stream: string;
  settings: Record<string, unknown>;
  /** More DB8_SWARM_* settings every node of the run takes. */
  env?: Record<string, string>;
}

export interface SwarmNode {
  name: string;
  server: RunningServer;
  admin: string;
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers, checked field by field.
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

/** A node's environment for one test run (also for a server started another way, e.g. the web's). */
export function swarmEnv(name: string, run: SwarmRun): Record<string, string> {
  return {
    DB8_SWARM_NATS_URL: NATS_URL,
    DB8_SWARM_PREFIX: run.prefix,
    DB8_SWARM_STREAM: run.stream,
    DB8_SWARM_NODE_ID: `node:${name}`,
    DB8_SWARM_ROOM_SETTINGS: JSON.stringify(run.settings),
    ...run.env,
  };
}

/** `webDist`: the built web app this node serves (the browser suites build their own). */
export async function startSwarmNode(
  name: string,
  run: SwarmRun,
  opts: { webDist?: string } = {},
): Promise<SwarmNode> {
  const dir = mkdtempSync(join(tmpdir(), `db8-swarm-${name}-`));
  const server = await startServer({
    env: swarmEnv(name, run),
    ...(opts.webDist ? { webDist: opts.webDist } : {}),
    port: 0,
    dataDir: dir,
    print: () => {},
    logLevel: 'silent',
  } as never);
  const token = new URL(server.adminLink as string).hash.replace('#token=', '');
  const login = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const admin = ((await login.json()) as { token: string }).token;
  let closed = false;
  return {
    name,
    server,
    admin,
    async call(method, path, body) {
      const r = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${admin}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await r.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // JSONL exports and Markdown stay text
      }
      return { status: r.status, json };
    },
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for a condition with an upper bound (convergence over the network, not a timing check). */
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
