// `db8 start`: run the server — embedded store in ./.db8 unless DATABASE_URL, in-process bus unless
// NATS_URL, web UI and API on one port — and print the one-time admin login link and the local admin
// credential for `db8 login --local`. Logs are readable lines on a terminal (DB8_LOG_FORMAT=json for
// JSON), requests at debug only.
import { type Command, InvalidArgumentError } from 'commander';
import { runAction } from '../io.ts';
import type { Product } from '../product.ts';

interface StartOptions {
  port?: number;
  host?: string;
  dataDir?: string;
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d{1,5}$/.test(v) || n > 65_535) throw new InvalidArgumentError('expected a port number (0-65535)');
  return n;
}

export function register(program: Command, product: Product): void {
  const cmd = program
    .command('start')
    .description('start the db8 server: web UI, REST, WebSocket and SSE on one port')
    .option('--port <port>', 'port to listen on (default: $PORT or 8787)', parsePort)
    .option('--host <host>', 'interface to bind (default: $HOST or 127.0.0.1)')
    .option('--data-dir <dir>', 'embedded store and server key directory (default: $DB8_DATA_DIR or ./.db8)');
  cmd.action(
    runAction(cmd, async (opts: StartOptions) => {
      const server = await product.startServer({
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        ...(opts.host !== undefined ? { host: opts.host } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
      });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    }),
  );
}
