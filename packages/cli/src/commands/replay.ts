// `db8 replay <room|bundle>`: refold a room's log from entry 0 on this machine's store and check it
// against every stored hash, snapshot and checkpoint; or, given a journal bundle file (a server
// export, a locally run room's journal.jsonl), refold its entries offline with core's refoldLog.
// Exit 3 when anything differs.
import { existsSync } from 'node:fs';
import { journalEntries, parseJournalText, refoldLog } from '@db8/core';
import { createProtocolRegistry } from '@db8/protocols';
import type { Command } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_VERIFICATION_FAILED } from '../exit-codes.ts';
import { CliError, readTextInput, runAction, writeStdout } from '../io.ts';

interface ReplayOptions {
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('replay')
    .description(
      'refold a room from its first entry and compare with the stored state (exit 3 on divergence)',
    )
    .argument('<room>', 'room id, or a journal bundle file (db8 export, a locally run room’s journal.jsonl)')
    .option('--data-dir <dir>', 'embedded store directory (default: $DB8_DATA_DIR or ./.db8)')
    .option('--database-url <url>', 'Postgres URL (default: $DATABASE_URL; else the embedded store)')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nOpens the store directly. Stop an embedded server first: PGlite is single-process, and a\n' +
        'second process on the same data directory fails or corrupts it.\n',
    );
  cmd.action(
    runAction(cmd, async (room: string, opts: ReplayOptions) => {
      if (existsSync(room)) return replayBundle(room, opts);
      // @db8/server (PGlite, fastify) loads only when the command runs.
      const { defaultProtocolRegistry, openStore, RuntimeError, replayRoom } = await import('@db8/server');
      const store = await openStore({
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.databaseUrl !== undefined ? { databaseUrl: opts.databaseUrl } : {}),
      });
      try {
        const report = await replayRoom(store, defaultProtocolRegistry(), room).catch((e: unknown) => {
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
async function replayBundle(file: string, opts: ReplayOptions): Promise<void> {
  const entries = journalEntries(parseJournalText(await readTextInput(file)).records.map((r) => r.value));
  if (entries.length === 0) throw new CliError(EXIT_INVALID_INPUT, `${file}: no journal entries`);
  const { state: _state, ...report } = refoldLog(entries, createProtocolRegistry());
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
