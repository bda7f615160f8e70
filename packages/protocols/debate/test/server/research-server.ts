// A local HTTP server for the research tool's tests: named routes, each counting its requests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageServer {
  port: number;
  /** `http://<host>:<port><path>` (host defaults to localhost). */
  url(path: string, host?: string): string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function pageServer(routes: Record<string, Handler>): Promise<PageServer> {
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    open.add(res);
    res.on('close', () => open.delete(res));
    const h = routes[path];
    if (!h) {
      res.writeHead(404).end('no such page');
      return;
    }
    h(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    url: (path, host = 'localhost') => `http://${host}:${port}${path}`,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const html = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
};

export const redirect = (location: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(302, { location }).end();
};
