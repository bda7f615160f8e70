import type { AnyProtocol } from '@db8/core';
import type { RunningServer, StartOptions } from '@db8/server';
import type { CliModule } from './protocols/module.ts';

/**
 * What the composition root hands the generic CLI: the protocols it offers, each side of them the
 * CLI needs, and the server `db8 start` runs. The CLI names no protocol; the `db8` package
 * (packages/app) composes the built-in ones, and a third party composes its own the same way.
 */
export interface Product {
  /** Every protocol's pure rules: what `db8 verify` and `db8 replay` refold with. */
  readonly protocols: readonly AnyProtocol[];
  /** Every protocol's CLI commands, in `db8 --help` order. */
  readonly cliModules: readonly CliModule[];
  /** Protocols offered as examples in `db8 room create --protocol` help. */
  readonly roomExamples: readonly string[];
  /** Start the server with the product's protocol modules (imported when `db8 start` runs). */
  startServer(opts: Pick<StartOptions, 'port' | 'host' | 'dataDir'>): Promise<RunningServer>;
}
