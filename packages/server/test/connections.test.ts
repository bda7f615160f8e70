import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { configFromEnv, resolveConfig, type ServerConfigInput } from '../src/config.ts';
import { closeSharedStore, type Harness, listen, makeApp, sharedStore } from './app-harness.ts';

/**
 * The TCP door: a socket that goes silent after its first header line is closed, an idle
 * keep-alive socket is closed, and open connections are capped per client address (429) and in
 * total (503) with an answer in the error shape. Raw sockets on 127.0.0.1 (and 127.0.0.2 as a
 * second client address) against a real listening server.
 */

let h: Harness | undefined;
const sockets: Socket[] = [];
afterAll(closeSharedStore);
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await h?.close();
  h = undefined;
});

async function server(config: ServerConfigInput): Promise<{ port: number }> {
  h = await makeApp({ store: await sharedStore(), config: { logLevel: 'silent', ...config } });
  const url = await listen(h);
  return { port: Number(new URL(url).port) };
}

interface Raw {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

async function open(port: number, localAddress = '127.0.0.1'): Promise<Raw> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  let got = '';
  socket.on('data', (d) => {
    got += d.toString('utf8');
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(got));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return { socket, closed };
}

/** Resolves with the value, or 'still open' if the server has not closed the socket by then. */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'still open'> {
  return Promise.race([p, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms).unref())]);
}

async function until(what: string, fn: () => boolean): Promise<void> {
  const end = Date.now() + PATIENCE_MS;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('timeouts', () => {
  it('a socket silent after its first header line is answered 408 and closed', async () => {
    const { port } = await server({ headersTimeoutMs: 300 });
    const raw = await open(port);
    raw.socket.write('GET /healthz HTTP/1.1\r\n');
    // The bound is far above the 300 ms configured (a loaded machine); Node's default is 60 s,
    // under it: a socket still open then is one the configured limit did not close.
    const got = await within(raw.closed, 50_000);
    expect(got).not.toBe('still open');
    expect(got).toMatch(/^HTTP\/1\.1 408/);
  });

  it('an idle keep-alive socket is closed after a complete request', async () => {
    const { port } = await server({ keepAliveTimeoutMs: 200 });
    const raw = await open(port);
    raw.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    const got = await within(raw.closed, 50_000);
    expect(got).not.toBe('still open');
    expect(got).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('connection caps', () => {
  it('per address: one over is a 429 in the error shape and closed; another address still gets in', async () => {
    const { port } = await server({ connectionLimit: { perAddress: 3, total: 100 } });
    for (let i = 0; i < 3; i++) await open(port);
    await until('3 counted', () => h!.app.connections.of('127.0.0.1') === 3);
    const over = await open(port);
    const text = await within(over.closed, PATIENCE_MS);
    expect(text).toMatch(/^HTTP\/1\.1 429 /);
    expect(JSON.parse(String(text).split('\r\n\r\n')[1]!)).toMatchObject({
      error: { code: 'TOO_MANY_CONNECTIONS', message: expect.stringMatching(/per client address/) },
    });
    // Another client address is not this one's problem.
    const other = await open(port, '127.0.0.2');
    other.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(await within(other.closed, PATIENCE_MS)).toMatch(/^HTTP\/1\.1 200/);
    // A slot freed is a slot to take again.
    sockets[0]!.destroy();
    await until('a slot freed', () => h!.app.connections.of('127.0.0.1') === 2);
    const again = await open(port);
    again.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(await within(again.closed, PATIENCE_MS)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('in total: one over is a 503 and closed', async () => {
    const { port } = await server({ connectionLimit: { perAddress: 100, total: 2 } });
    await open(port);
    await open(port, '127.0.0.2');
    await until('2 counted', () => h!.app.connections.total === 2);
    const over = await open(port, '127.0.0.3');
    over.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    const text = String(await within(over.closed, PATIENCE_MS));
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toContain('"TOO_MANY_CONNECTIONS"');
  });

  it('defaults generous enough for a benchmark on one address; set from the environment', () => {
    expect(resolveConfig({}).connectionLimit).toEqual({ perAddress: 2048, total: 16384 });
    expect(configFromEnv({ DB8_MAX_CONNECTIONS_PER_ADDRESS: '5' }).connectionLimit).toEqual({
      perAddress: 5,
      total: 16384,
    });
    expect(configFromEnv({ DB8_MAX_CONNECTIONS: '100' }).connectionLimit).toEqual({
      perAddress: 2048,
      total: 100,
    });
  });
});
