// The contract a protocol's CLI module folder (protocols/<name>/index.ts) exports. The generic CLI
// (main.ts, commands/) iterates registry.ts and never names a protocol.
import type { Command } from 'commander';

export interface CliModule {
  /** The protocol's name, as in packages/protocols/<name> and a room's `protocol`. */
  readonly protocol: string;
  /**
   * Adds the module's commands to `program`. Imports commander and @db8/core only, so `db8 --help`
   * stays fast; each action imports the module's *-impl.ts (or heavier deps) when it runs.
   */
  register(program: Command): void;
  /**
   * `db8 --help` lists the module's top-level commands right after this generic command; without
   * it they follow the generic ones, in registry order.
   */
  readonly listAfter?: string;
  /** Offer this protocol as an example in `db8 room create --protocol` help. */
  readonly roomExample?: boolean;
}
