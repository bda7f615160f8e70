import { type Product, main as runCli } from '@db8/cli';
import { cliModules, roomProtocolExamples } from './cli-modules.ts';
import { builtinProtocols } from './protocols.ts';

// The composition root: db8 is the generic platform (core, server, web, CLI) plus the protocols
// listed here and in server-modules.ts, cli-modules.ts and web/modules.ts — as boardgame.io's
// `Server({ games })` composes its games. A third party composes its own protocols the same way.

export const product: Product = {
  protocols: builtinProtocols,
  cliModules,
  roomExamples: roomProtocolExamples(),
  // Imported when `db8 start` runs, so `db8 --help` does not load the server.
  startServer: async (opts) => (await import('./server.ts')).startServer(opts),
};

export function main(argv: string[]): Promise<number> {
  return runCli(argv, product);
}
