import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A cap on open TCP connections, per client address and in total, applied when a socket is
 * accepted, before Node's HTTP parser is attached to it: a socket over the cap gets one plain HTTP
 * answer (429 for its address, 503 for the server) and is closed, so a flood of silent sockets
 * cannot hold the server's file descriptors. Slow sockets that do get in are ended by the header,
 * request and keep-alive timeouts (app.ts). Upgraded WebSockets and SSE streams count while open.
 */

export interface ConnectionLimits {
  perAddress: number;
  total: number;
}

export interface ConnectionCounts {
  total: number;
  of(address: string): number;
}

/** How long a refused socket may take to read its answer before it is destroyed. */
const REFUSED_LINGER_MS = 2_000;

function answer(status: 429 | 503, message: string): string {
  const body = JSON.stringify({ error: { code: 'TOO_MANY_CONNECTIONS', message } });
  const reason = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`
  );
}

function refuse(socket: Socket, status: 429 | 503, message: string): void {
  // Read and drop what the client sends (closing with unread data would reset the connection and
  // could lose the answer), say why, and close.
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  socket.end(answer(status, message));
}

export function limitConnections(server: Server, limits: ConnectionLimits): ConnectionCounts {
  const byAddress = new Map<string, number>();
  let total = 0;
  // Node's own 'connection' listener attaches the HTTP parser. It runs only for admitted sockets:
  // the listeners present now are moved behind the check (the documented way to hand a socket to
  // an HTTP server is to emit 'connection' with it; this is that, filtered).
  const inner = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = byAddress.get(address) ?? 0;
    if (total >= limits.total) {
      refuse(socket, 503, `the server holds its maximum of ${limits.total} connections: retry shortly`);
      return;
    }
    if (mine >= limits.perAddress) {
      refuse(socket, 429, `at most ${limits.perAddress} open connections per client address`);
      return;
    }
    total++;
    byAddress.set(address, mine + 1);
    socket.once('close', () => {
      total--;
      const n = (byAddress.get(address) ?? 1) - 1;
      if (n > 0) byAddress.set(address, n);
      else byAddress.delete(address);
    });
    for (const l of inner) l.call(server, socket);
  });
  return {
    get total() {
      return total;
    },
    of: (address) => byAddress.get(address) ?? 0,
  };
}
