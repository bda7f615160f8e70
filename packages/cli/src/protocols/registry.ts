// Every protocol's CLI module: adding a protocol's commands is one line here (docs/protocols.md).
import { councilCli } from './council/index.ts';
import { debateCli } from './debate/index.ts';
import { deliberationCli } from './deliberation/index.ts';
import type { CliModule } from './module.ts';
import { pokerCli } from './poker/index.ts';
import { swarmCli } from './question/index.ts';

export type { CliModule } from './module.ts';

export const cliModules: readonly CliModule[] = [councilCli, deliberationCli, pokerCli, debateCli, swarmCli];

/** `db8 room create --protocol` help: the generic example, then the modules that offer themselves. */
export function roomProtocolExamples(): string[] {
  const named = cliModules.filter((m) => m.roomExample).map((m) => m.protocol);
  return ['sealed-bid', ...named.sort()];
}
