// A real db8 server (startServer) on a temporary embedded store with no environment, and an admin
// session from its one-time link: what the end-to-end server suites start from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from 'db8/server';

export interface StartedServer {
  server: RunningServer;
  /** Its data directory (removed by close). */
  dir: string;
  /** The admin's session token. */
  admin: string;
  close(): Promise<void>;
}

export async function startEmbeddedServer(prefix: string): Promise<StartedServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServer({
    env: false,
    port: 0,
    dataDir: dir,
    print: () => {},
    logLevel: 'silent',
  } as never);
  const token = new URL(server.adminLink!).hash.replace('#token=', '');
  const r = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const admin = ((await r.json()) as { token: string }).token;
  return {
    server,
    dir,
    admin,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
