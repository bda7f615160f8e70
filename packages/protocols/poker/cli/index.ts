// `db8 poker simulate|replay|phh`: reference agents against a local table server, offline replay of
// a table export (seed 002 §11), and replay of other engines' PHH hand histories.
import { readFile } from 'node:fs/promises';
import type { CliModule } from '@db8/cli/kit';
import {
  CliError,
  EXIT_INVALID_INPUT,
  EXIT_IO_ERROR,
  EXIT_USAGE,
  EXIT_VERIFICATION_FAILED,
  runAction,
  writeStdout,
} from '@db8/cli/kit';
import type { Command } from 'commander';

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new CliError(EXIT_USAGE, `${name}: expected an integer, got ${v}`);
  return n;
};

function register(program: Command): void {
  const poker = program
    .command('poker')
    .description('poker tables: simulate reference agents, replay exports and PHH hand histories');

  const sim = poker
    .command('simulate')
    .description(
      'run each agent as its own process over WebSocket at a table on a local server of its own (or, with --url, on a running server you are admin of, to watch in the web app); print bb/100 per agent with 95% intervals',
    )
    .option(
      '--url <url>',
      'play on this running server (needs an admin session: db8 login --local or --link); the table is watchable at <url>/tables/<id>',
    )
    .requiredOption('--agents <list>', 'comma-separated agents: random, tight, station (2–10)')
    .option('--hands <n>', 'hands to play', int('--hands'), 200)
    .option(
      '--seed <n>',
      "seed for the deals and the agents' random choices (local tables; a --url table draws its own)",
      int('--seed'),
      1,
    )
    .option('--blinds <sb/bb>', 'small and big blind', '5/10')
    .option('--stack <chips>', 'starting stack (default 100 big blinds)', int('--stack'))
    .option('--timeout-ms <ms>', 'action timeout', int('--timeout-ms'), 5000)
    .option('--export <file>', 'write the table export (JSONL) for db8 poker replay')
    .option(
      '--journal <file>',
      'write the room journal bundle (admin view) for db8 verify and db8 poker replay',
    )
    .option('--json', 'print the result as JSON');
  sim.action(
    runAction(
      sim,
      async (o: {
        agents: string;
        url?: string;
        hands: number;
        seed: number;
        blinds: string;
        stack?: number;
        timeoutMs: number;
        export?: string;
        journal?: string;
        json?: boolean;
      }) => {
        const [sb, bb] = o.blinds.split('/').map(Number);
        if (!Number.isSafeInteger(sb) || !Number.isSafeInteger(bb))
          throw new CliError(EXIT_USAGE, '--blinds: expected sb/bb');
        const { formatSimulation, simulate } = await import('./simulate.ts');
        const opts = {
          agents: o.agents
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
          hands: o.hands,
          seed: o.seed,
          smallBlind: sb!,
          bigBlind: bb!,
          ...(o.stack !== undefined ? { stack: o.stack } : {}),
          actionTimeoutMs: o.timeoutMs,
          ...(o.export ? { exportPath: o.export } : {}),
          ...(o.journal ? { journalPath: o.journal } : {}),
          log: (line: string) => process.stderr.write(`${line}\n`),
        };
        if (o.url && (o.export || o.journal))
          throw new CliError(
            EXIT_USAGE,
            '--export and --journal are for a local table: with --url, use db8 export',
          );
        const r = o.url
          ? await (await import('./simulate-remote.ts')).simulateRemote({ ...opts, url: o.url })
          : await simulate(opts);
        await writeStdout(o.json ? `${JSON.stringify(r)}\n` : formatSimulation(r));
        if (!r.chipsConserved || !r.replayOk)
          throw new CliError(EXIT_VERIFICATION_FAILED, 'the table log did not replay cleanly');
      },
    ),
  );

  const rep = poker
    .command('replay')
    .description(
      're-run the rules over a table export: chip conservation, legality, deals; says where a log diverges',
    )
    .argument(
      '<export>',
      'JSONL table export (GET /v1/admin/tables/:id/export, simulate --export) or journal bundle (db8 export, simulate --journal)',
    )
    .option('--json', 'print the report as JSON');
  rep.action(
    runAction(rep, async (file: string, o: { json?: boolean }) => {
      const { replayExport } = await import('./replay.ts');
      const r = replayExport(await readFile(file, 'utf8'));
      if (o.json) await writeStdout(`${JSON.stringify(r)}\n`);
      else if (r.ok)
        await writeStdout(
          `ok: ${r.entries} entries, ${r.hands} hands; chips conserved, every action legal, every deal matches its commitment${r.format === 'journal' ? '; journal hashes, signatures and deck notes verify' : ''}\n`,
        );
      if (!r.ok) {
        const where =
          r.divergence?.seq !== undefined
            ? `seq ${r.divergence.seq}`
            : r.divergence?.hand !== undefined
              ? `hand ${r.divergence.hand}`
              : 'the log';
        throw new CliError(
          EXIT_VERIFICATION_FAILED,
          `diverges at ${where}: ${r.divergence?.reason ?? 'unknown'}`,
        );
      }
    }),
  );
  const phh = poker
    .command('phh')
    .description(
      "replay every hand of a folder of PHH hand histories (.phh, .phhs) through the engine and count those that end with the file's finishing_stacks",
    )
    .argument('<dir>', 'a folder (searched recursively) or one .phh/.phhs file')
    .option('--json', 'print the report as JSON');
  phh.action(
    runAction(phh, async (dir: string, o: { json?: boolean }) => {
      const { checkPhhDir, formatPhhReport } = await import('./phh.ts');
      let r: Awaited<ReturnType<typeof checkPhhDir>>;
      try {
        r = await checkPhhDir(dir);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
        throw new CliError(EXIT_IO_ERROR, `cannot read ${dir}: ${code}`);
      }
      await writeStdout(o.json ? `${JSON.stringify(r)}\n` : formatPhhReport(r));
      if (r.mismatched + r.illegal > 0)
        throw new CliError(
          EXIT_VERIFICATION_FAILED,
          `${r.mismatched} hand(s) end with other stacks than their file, ${r.illegal} did not replay`,
        );
      if (r.unreadable > 0) throw new CliError(EXIT_INVALID_INPUT, `${r.unreadable} not readable as PHH`);
      if (r.matched + r.unchecked === 0)
        throw new CliError(EXIT_INVALID_INPUT, `no no-limit hold'em hands found in ${dir}`);
    }),
  );
}

/** Poker's CLI: `poker simulate`, `poker replay` and `poker phh`. */
export const pokerCli: CliModule = { protocol: 'poker', register, roomExample: true };
