// `db8 council "question"` runs the seed-001 council locally (no server): artifacts under
// <home>/records/debates/<run_id>/, a decision record, and a PGlite index. Subcommands: replay,
// list, show, search, reindex. docs/council.md and docs/providers.md describe the files and the options.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliModule } from '@db8/cli/kit';
import {
  CliError,
  EXIT_IO_ERROR,
  EXIT_USAGE,
  EXIT_VERIFICATION_FAILED,
  readTextInput,
  runAction,
  writeStdout,
} from '@db8/cli/kit';
import type { Command } from 'commander';
import type { FinalPacket, TurnRecord } from '../rules/index.ts';
import { usageLine } from '../rules/markdown.ts';
import { homeDir, RUN_ID_PATTERN, runDir } from './files.ts';
import type { CouncilIndex, RunRow } from './index-db.ts';
import type { ReindexReport } from './reindex.ts';

// Agents, the protocol and PGlite load only when a council command runs, so `db8 --help` stays fast.
const heavy = () => import('./deps.ts');

interface CommonOptions {
  home?: string;
  json?: boolean;
}

interface RunOptions extends CommonOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  config?: string;
  context?: string;
  contextFile?: string;
  worklog?: boolean;
  progress?: boolean;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function summary(p: FinalPacket, home: string, dir: string, record: string | null, markdown: string): string {
  const flags = [
    p.degradation.degraded ? `degraded: ${p.degradation.markers.length} marker(s)` : null,
    p.scripted ? 'SCRIPTED' : null,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `run ${p.runId} completed${flags ? ` (${flags})` : ''}`,
    `decision [${p.decision.verdict}] ${p.decision.summary}`,
    `consensus ${pct(p.scores.consensus)} · confidence ${pct(p.scores.confidence)} · lean ${p.lean}`,
    ...(p.usage ? [`usage ${usageLine(p.usage)}`] : []),
    `packet ${join(dir, markdown)}`,
    `record ${record ? join(home, record) : '-'}`,
    '',
  ].join('\n');
}

interface RunInput {
  question: string;
  context?: string;
  outputType?: 'decision' | 'worklog';
  rerunOf?: string;
  reuse?: readonly TurnRecord[];
}

/** One local run (a new question or a re-run) and its report: the summary, or JSON with --json. */
async function runAndReport(home: string, opts: RunOptions, input: RunInput): Promise<void> {
  const { ARTIFACT_PATHS, ProviderConfigError, runLocalCouncil, StorageError } = await heavy();
  let res: Awaited<ReturnType<typeof runLocalCouncil>>;
  try {
    res = await runLocalCouncil({
      home,
      ...input,
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.model ? { model: opts.model } : {}),
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.apiKeyEnv ? { apiKeyEnv: opts.apiKeyEnv } : {}),
      ...(opts.config ? { configPath: opts.config } : {}),
      ...(opts.progress
        ? {
            onProgress: (p) =>
              process.stderr.write(
                p.kind === 'stage'
                  ? `[${p.stage}]\n`
                  : `  ${p.role} ${p.detail === 'reused' ? 'reused' : p.ok ? 'ok' : `failed (${p.detail})`}\n`,
              ),
          }
        : {}),
    });
  } catch (e) {
    if (e instanceof ProviderConfigError) throw new CliError(EXIT_USAGE, e.message);
    if (e instanceof StorageError) throw new CliError(EXIT_IO_ERROR, e.message);
    throw e;
  }
  if (res.status !== 'completed' || !res.packet) {
    const why = res.run.room.state.abort?.error;
    throw new CliError(
      EXIT_IO_ERROR,
      `run ${res.runId} aborted: ${why ? `${why.code}: ${why.message}` : 'unknown'}`,
    );
  }
  if (opts.json) {
    const p = res.packet;
    const out = {
      runId: res.runId,
      ...(input.rerunOf ? { rerunOf: input.rerunOf, reused: res.reused } : {}),
      status: res.status,
      runDir: res.runDir,
      packetPath: join(res.runDir, ARTIFACT_PATHS.packet),
      recordPath: res.recordPath ? join(home, res.recordPath) : null,
      packetSha256: res.packetSha256,
      decision: p.decision,
      scores: p.scores,
      degraded: p.degradation.degraded,
      markers: p.degradation.markers.map((m) => `${m.stage}/${m.role ?? '-'}/${m.code}`),
      scripted: p.scripted,
      usage: p.usage ?? null,
    };
    await writeStdout(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const rerun = input.rerunOf
      ? `re-run of ${input.rerunOf}: ${res.reused} turn(s) reused, ${res.run.calls.length} asked again\n`
      : '';
    await writeStdout(rerun + summary(res.packet, home, res.runDir, res.recordPath, ARTIFACT_PATHS.markdown));
  }
}

/**
 * Run `fn` with the index open: under the home's index lock (concurrent db8 processes wait their
 * turn), rebuilt from the artifacts first if it is missing or broken.
 */
async function withIndex<T>(
  home: string,
  fn: (index: CouncilIndex, rebuilt: ReindexReport | null) => Promise<T>,
  opts: { fresh?: boolean } = {},
): Promise<T> {
  const { openIndex } = await heavy();
  let opened: Awaited<ReturnType<typeof openIndex>>;
  try {
    opened = await openIndex(home, opts);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot open the index in ${home}: ${errorText(e)}`);
  }
  try {
    return await fn(opened.index, opened.rebuilt);
  } finally {
    await opened.index.close();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function rowLine(r: RunRow): string {
  const flags = `${r.degraded ? 'D' : '-'}${r.scripted ? 'S' : '-'}`;
  const when = r.created_at.toISOString().slice(0, 16).replace('T', ' ');
  return `${r.run_id}  ${when}  ${r.status.padEnd(9)} ${flags}  ${r.verdict.padEnd(21)} ${pct(r.consensus).padStart(4)}  ${r.question}`;
}

function register(program: Command): void {
  const council = program
    .command('council')
    .description(
      'run a five-role council on a question, locally (seed 001); or replay/list/show/search/reindex runs',
    )
    .argument('[question]', 'the question to decide')
    .option('--home <dir>', 'where records and the index live (default $DB8_HOME or ./.db8)')
    .option(
      '--provider <name>',
      'provider profile for every role: scripted, openai, anthropic, openrouter, ollama, vllm, llamacpp, …',
    )
    .option('--model <model>', 'model for every role')
    .option('--base-url <url>', 'base URL of the provider API')
    .option('--api-key-env <name>', "environment variable holding the --base-url endpoint's key")
    .option('--config <file>', 'db8.config.json (default ./db8.config.json, then <home>/db8.config.json)')
    .option('--context <text>', 'background for the council')
    .option('--context-file <file>', 'read the context from a file (- for stdin)')
    .option('--worklog', 'write back a worklog record instead of a decision')
    .option('--progress', 'report stages and turns on stderr')
    .option('--json', 'print a JSON summary');
  council.action(
    runAction(council, async (question: string | undefined, opts: RunOptions) => {
      if (!question?.trim()) throw new CliError(EXIT_USAGE, 'give a question: db8 council "…"');
      const context = opts.contextFile ? await readTextInput(opts.contextFile) : opts.context;
      await runAndReport(homeDir(opts.home), opts, {
        question,
        ...(context ? { context } : {}),
        ...(opts.worklog ? { outputType: 'worklog' as const } : {}),
      });
    }),
  );

  const rerun = council
    .command('rerun')
    .description(
      'run a degraded run again as a new run: its successful turns are reused as recorded, only the failed roles are asked again',
    )
    .argument('<run_id>', 'the degraded run');
  rerun.action(
    runAction(rerun, async (runId: string) => {
      const opts = rerun.optsWithGlobals<RunOptions>();
      if (!RUN_ID_PATTERN.test(runId)) throw new CliError(EXIT_USAGE, `not a run id: ${runId}`);
      const home = homeDir(opts.home);
      const { replayRun } = await heavy();
      // The earlier run is read from its verified log, never from the artifacts alone.
      const rep = await withIndex(home, (index) => replayRun(home, runId, index));
      if (!rep.ok || !rep.state) {
        throw new CliError(
          EXIT_VERIFICATION_FAILED,
          `run ${runId} does not replay: ${rep.problems.join('; ')}`,
        );
      }
      const old = rep.state;
      if (!old.packet?.degradation.degraded) {
        throw new CliError(
          EXIT_USAGE,
          `run ${runId} is not degraded: every role completed, nothing to re-run`,
        );
      }
      await runAndReport(home, opts, {
        question: old.config.question,
        ...(old.config.context ? { context: old.config.context } : {}),
        outputType: old.config.outputType,
        rerunOf: runId,
        reuse: old.turns,
      });
    }),
  );

  const replay = council
    .command('replay')
    .description(
      'rebuild a run from its JSON artifacts and check them and the index (exit 3 on any difference)',
    )
    .argument('<run_id>');
  replay.action(
    runAction(replay, async (runId: string) => {
      const { home, json } = replay.optsWithGlobals<CommonOptions>();
      if (!RUN_ID_PATTERN.test(runId)) throw new CliError(EXIT_USAGE, `not a run id: ${runId}`);
      const h = homeDir(home);
      const { replayRun } = await heavy();
      const rep = await withIndex(h, (index) => replayRun(h, runId, index));
      if (json) await writeStdout(`${JSON.stringify({ ...rep, state: undefined }, null, 2)}\n`);
      if (!rep.ok) {
        throw new CliError(EXIT_VERIFICATION_FAILED, `replay of ${runId} failed: ${rep.problems.join('; ')}`);
      }
      if (!json) {
        await writeStdout(
          `replay ok: ${runId} — ${rep.entries} log entries refolded, ${rep.checked} artifacts and the index match\n`,
        );
      }
    }),
  );

  const list = council.command('list').description('list council runs, newest first');
  list.action(
    runAction(list, async () => {
      const { home, json } = list.optsWithGlobals<CommonOptions>();
      const rows = await withIndex(homeDir(home), (index) => index.listRuns());
      if (json) return writeStdout(`${JSON.stringify(rows, null, 2)}\n`);
      await writeStdout(rows.map((r) => `${rowLine(r)}\n`).join(''));
    }),
  );

  const show = council
    .command('show')
    .description("print a run's final-packet.md and its state-transition log (or, with --json, the packet)")
    .argument('<run_id>', 'a run id or a unique prefix');
  show.action(
    runAction(show, async (id: string) => {
      const { home, json } = show.optsWithGlobals<CommonOptions>();
      const h = homeDir(home);
      const row = await withIndex(h, (index) => index.findRun(id));
      if (!row) throw new CliError(EXIT_USAGE, `no run ${id} in ${h}`);
      const { ARTIFACT_PATHS, transitionLines } = await heavy();
      const file = join(runDir(h, row.run_id), json ? ARTIFACT_PATHS.packet : ARTIFACT_PATHS.markdown);
      const text = await readFile(file, 'utf8').catch((e: Error) => {
        throw new CliError(EXIT_IO_ERROR, `cannot read ${file}: ${e.message}`);
      });
      if (json) return writeStdout(text);
      // The transition log follows the packet (runs made before it was written have none).
      const log = await readFile(join(runDir(h, row.run_id), ARTIFACT_PATHS.transitions), 'utf8').catch(
        () => null,
      );
      const lines =
        log === null ? [] : transitionLines(JSON.parse(log) as Parameters<typeof transitionLines>[0]);
      await writeStdout(
        lines.length > 0 ? `${text.trimEnd()}\n\n## State transitions\n\n${lines.join('\n')}\n` : text,
      );
    }),
  );

  const reindex = council
    .command('reindex')
    .description('rebuild the index from the JSON artifacts (the source of truth); lists runs left out');
  reindex.action(
    runAction(reindex, async () => {
      const { home, json } = reindex.optsWithGlobals<CommonOptions>();
      const h = homeDir(home);
      const rep = await withIndex(h, async (_index, rebuilt) => rebuilt!, { fresh: true });
      if (json) return writeStdout(`${JSON.stringify(rep, null, 2)}\n`);
      await writeStdout(
        [
          `reindexed ${rep.indexed.length} run(s) from the artifacts in ${h}\n`,
          ...rep.skipped.map((s) => `skipped ${s.runId}: ${s.reason}\n`),
        ].join(''),
      );
    }),
  );

  const search = council
    .command('search')
    .description('full-text search over questions, decisions and every turn')
    .argument('<query>');
  search.action(
    runAction(search, async (query: string) => {
      const { home, json } = search.optsWithGlobals<CommonOptions>();
      const hits = await withIndex(homeDir(home), (index) => index.search(query));
      if (json) return writeStdout(`${JSON.stringify(hits, null, 2)}\n`);
      await writeStdout(
        hits
          .map((h) => `${h.run_id}  ${h.rank.toFixed(3)}  ${h.matched_turns} turn(s)  ${h.question}\n`)
          .join(''),
      );
    }),
  );
}

/** The council's CLI: `council` runs locally, so help lists it with the local tools (canon, hash). */
export const councilCli: CliModule = { protocol: 'council', register, listAfter: 'hash' };
