// `db8 arena run|verify`: play a tournament locally (scripted and model entrants) and check one offline.
import type { CliModule } from '@db8/cli/kit';
import {
  CliError,
  EXIT_INVALID_INPUT,
  EXIT_USAGE,
  EXIT_VERIFICATION_FAILED,
  progress,
  runAction,
  writeStdout,
} from '@db8/cli/kit';
import type { Command } from 'commander';
import type { Games } from './game.ts';

function register(program: Command, loadGames: () => Promise<Games>): void {
  const arena = program
    .command('arena')
    .description('tournaments: run one locally (round robin, Swiss, duplicate poker) and verify its bundles');

  const run = arena
    .command('run')
    .description(
      'play a tournament spec (YAML or JSON) locally: scripted entrants, and model entrants through provider profiles ($DB8_CONFIG or ./db8.config.json); write the tournament bundle, every match bundle, the standings, its tables (tables/*.csv, *.json) and what model entrants cost (costs.json) to --out',
    )
    .argument('<spec>', 'tournament spec: .yaml, .yml or .json (see docs/arena.md)')
    .option('--out <dir>', 'output directory', 'arena-out')
    .option('--concurrency <n>', "matches at once (default: the spec's)")
    .option('--json', 'print the standings as JSON');
  run.action(
    runAction(run, async (spec: string, o: { out: string; concurrency?: string; json?: boolean }) => {
      const concurrency = o.concurrency === undefined ? undefined : Number(o.concurrency);
      if (concurrency !== undefined && !(Number.isSafeInteger(concurrency) && concurrency >= 1))
        throw new CliError(EXIT_USAGE, `--concurrency: expected a positive integer, got ${o.concurrency}`);
      const { formatMatrix, formatStandings, readSpec, runTournament, SpecError } = await import('./run.ts');
      const { formatCosts } = await import('./cost.ts');
      const p = progress();
      try {
        const config = await readSpec(spec);
        const r = await runTournament(config, await loadGames(), {
          out: o.out,
          ...(concurrency !== undefined ? { concurrency } : {}),
          onMatch: (done, total, _m, line) => {
            p.line(line);
            p.update(`${done}/${total} matches`, done === total);
          },
        });
        p.done();
        await writeStdout(
          o.json
            ? `${JSON.stringify({ room: r.room, matches: r.matches, out: r.out, standings: r.standings, costs: r.costs })}\n`
            : `${r.matches} matches in ${r.out} (room ${r.room}; tables in ${r.out}/tables)\n${formatStandings(r.standings)}${formatMatrix(r.matrix)}${formatCosts(r.costs.total)}`,
        );
      } catch (e) {
        p.done();
        if (e instanceof SpecError) throw new CliError(EXIT_INVALID_INPUT, e.message);
        throw e;
      }
    }),
  );

  const verify = arena
    .command('verify')
    .description(
      'check a tournament directory offline: every bundle verified and refolded, each result against its match log, the standings and tables refolded',
    )
    .argument('<dir>', 'the directory db8 arena run wrote')
    .option('--json', 'print the verdict as JSON');
  verify.action(
    runAction(verify, async (dir: string, o: { json?: boolean }) => {
      const { verifyArena } = await import('./verify.ts');
      const { formatMatrix, formatStandings } = await import('./run.ts');
      const v = await verifyArena(dir, await loadGames());
      if (o.json) await writeStdout(`${JSON.stringify(v)}\n`);
      if (!v.ok) {
        const first = v.problems[0]!;
        const more = v.problems.length > 1 ? ` (+${v.problems.length - 1} more)` : '';
        throw new CliError(
          EXIT_VERIFICATION_FAILED,
          `${first.match ? `match ${first.match}: ` : ''}${first.message}${more}`,
        );
      }
      if (!o.json)
        await writeStdout(
          `ok ${dir}: room ${v.room}, ${v.matches} matches verified against their bundles; standings and tables refold the same\n${formatStandings(v.standings!)}${formatMatrix(v.matrix!)}`,
        );
    }),
  );
}

/**
 * The arena's CLI (`arena run`, `arena verify`), given the games it may play: the composition root
 * passes them (loaded only when a command runs, so `db8 --help` stays light).
 */
export function arenaCli(loadGames: () => Promise<Games>): CliModule {
  return { protocol: 'arena', register: (program) => register(program, loadGames) };
}
