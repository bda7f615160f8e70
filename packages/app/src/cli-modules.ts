// Every protocol's CLI module: adding a protocol's commands is one line here (docs/protocols.md).
import { arenaCli } from '@db8/arena/cli';
import type { CliModule } from '@db8/cli';
import { councilCli } from '@db8/council/cli';
import { debateCli } from '@db8/debate/cli';
import { deliberationCli } from '@db8/deliberation/cli';
import { pokerCli } from '@db8/poker/cli';
import { swarmCli } from '@db8/question/cli';

export const cliModules: readonly CliModule[] = [
  councilCli,
  deliberationCli,
  pokerCli,
  debateCli,
  swarmCli,
  arenaCli(() => import('./arena-games.ts').then((m) => m.arenaGames)),
];

/** `db8 room create --protocol` help: the generic example, then the modules that offer themselves. */
export function roomProtocolExamples(): string[] {
  const named = cliModules.filter((m) => m.roomExample).map((m) => m.protocol);
  return ['sealed-bid', ...named.sort()];
}
