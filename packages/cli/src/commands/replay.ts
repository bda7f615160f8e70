// `db8 replay <room|bundle>`: refold a room's log from entry 0 and check it. Given a journal bundle
// file (a server export, a locally run room's journal.jsonl), or a room on a running server (its
// export, as the saved session may see it), refold the entries offline with core's refoldLog; with
// --data-dir / --database-url, or when no server answers, refold from this machine's store and
// check every stored hash, snapshot and checkpoint too. Exit 3 when anything differs.
import { existsSync } from 'node:fs';
import {
  createProtocolRegistry,
  journalEntries,
  type ProtocolRegistry,
  parseJournalText,
  refoldLog,
} from '@db8/core';
import type { Command } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_VERIFICATION_FAILED } from '../exit-codes.ts';
import { CliError, readTextInput, runAction, writeStdout } from '../io.ts';
import type { Product } from '../product.ts';

interface ReplayOptions {
  url?: string;
  token?: string;
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

export function register(program: Command, product: Product): void {
  const registry = createProtocolRegistry(product.protocols);
  const cmd = program
    .command('replay')
    .description(
      'refold a room from its first entry and compare with the stored state (exit 3 on divergence)',
    )
    .argument('<room>', 'room id, or a journal bundle file (db8 export, a locally run room’s journal.jsonl)')
    .option(
      '--url <url>',
      'ask this server for the room (default: $DB8_URL, else the saved session’s, else http://127.0.0.1:8787)',
    )
    .option('--token <token>', 'bearer token for the export (default: $DB8_TOKEN, else the saved session)')
    .option('--data-dir <dir>', 'embedded store directory (default: $DB8_DATA_DIR or ./.db8)')
    .option('--database-url <url>', 'Postgres URL (default: $DATABASE_URL; else the embedded store)')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nA room id is asked of the server first (its export, refolded here: sealed entries need a seat\n' +
        'or admin session to be refolded). With --data-dir or --database-url, or when no server answers,\n' +
        'the store is opened directly. Stop an embedded server first: PGlite is single-process, and a\n' +
        'second process on the same data directory fails or corrupts it.\n',
    );
  cmd.action(
    runAction(cmd, async (room: string, opts: ReplayOptions) => {
      if (existsSync(room)) return replayBundle(await readTextInput(room), room, opts, registry);
      const direct = opts.dataDir !== undefined || opts.databaseUrl !== undefined;
      if (!direct) {
        const { fetchExport } = await import('./export-impl.ts');
        const text = await fetchExport(room, opts).catch((e: unknown) => {
          // No server here (and none named): the room may be in this machine's store.
          if (e instanceof CliError && e.exitCode === EXIT_IO_ERROR && !opts.url && !process.env.DB8_URL)
            return null;
          throw e;
        });
        if (text !== null) return replayBundle(text, room, opts, registry);
      }
      // @db8/server (PGlite, fastify) loads only when the command runs.
      const { openStore, RuntimeError, replayRoom } = await import('@db8/server');
      const store = await openStore({
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.databaseUrl !== undefined ? { databaseUrl: opts.databaseUrl } : {}),
      });
      try {
        const report = await replayRoom(store, registry, room).catch((e: unknown) => {
          // ROOM_NOT_FOUND, UNKNOWN_PROTOCOL…: the input names nothing this store can replay.
          throw e instanceof RuntimeError ? new CliError(EXIT_INVALID_INPUT, e.message) : e;
        });
        if (opts.json) {
          await writeStdout(`${JSON.stringify(report)}\n`);
        } else {
          const lines = [
            `room ${room}: ${report.ok ? 'ok' : 'DIVERGED'} at seq ${report.seq}`,
            `refolded state ${report.stateHash}`,
            `stored state   ${report.storedStateHash}`,
            ...report.problems.map((p) => `problem: ${p}`),
          ];
          await writeStdout(`${lines.join('\n')}\n`);
        }
        if (!report.ok) {
          const at =
            report.firstDivergence !== undefined
              ? ` (first divergence at seq ${report.firstDivergence})`
              : '';
          throw new CliError(EXIT_VERIFICATION_FAILED, `replay of ${room} diverged${at}`);
        }
      } finally {
        await store.close();
      }
    }),
  );
}

/** A bundle refolded offline: the same report shape, from its entries alone (no store). */
async function replayBundle(
  text: string,
  file: string,
  opts: ReplayOptions,
  registry: ProtocolRegistry,
): Promise<void> {
  const entries = journalEntries(parseJournalText(text).records.map((r) => r.value));
  if (entries.length === 0) throw new CliError(EXIT_INVALID_INPUT, `${file}: no journal entries`);
  const { state: _state, ...report } = refoldLog(entries, registry);
  const room = entries[0]!.room;
  if (opts.json) await writeStdout(`${JSON.stringify(report)}\n`);
  else {
    const lines = [
      `room ${room}: ${report.ok ? 'ok' : report.skipped !== undefined ? 'NOT REFOLDED' : 'DIVERGED'} at seq ${report.seq}`,
      `refolded state ${report.stateHash}`,
      ...(report.skipped !== undefined ? [`skipped: ${report.skipped}`] : []),
      ...report.problems.map((p) => `problem: ${p}`),
    ];
    await writeStdout(`${lines.join('\n')}\n`);
  }
  if (report.skipped !== undefined) throw new CliError(EXIT_INVALID_INPUT, `${file}: ${report.skipped}`);
  if (!report.ok) {
    const at =
      report.firstDivergence !== undefined ? ` (first divergence at seq ${report.firstDivergence})` : '';
    throw new CliError(EXIT_VERIFICATION_FAILED, `replay of ${room} diverged${at}`);
  }
}
