// `db8 deliberate "task"` runs a seed-004 deliberation: locally (no server; every seat through the
// chosen provider, the operator measuring code in the sandbox), or with --url on a running server
// through its /v1/debates routes. docs/deliberation.md and docs/cli.md describe the options.

import type { CliModule } from '@db8/cli/kit';
import { CliError, EXIT_USAGE, runAction } from '@db8/cli/kit';
import type { Command } from 'commander';

export interface DeliberateOptions {
  topology?: string;
  coordination?: string;
  voting?: string;
  rounds?: string;
  seats?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  config?: string;
  minConsensus?: string;
  gate?: string[];
  rejectGates?: boolean;
  tools?: boolean;
  lessons?: boolean;
  code?: string;
  tests?: string;
  seed?: string;
  url?: string;
  progress?: boolean;
  json?: boolean;
}

function register(program: Command): void {
  const cmd = program
    .command('deliberate')
    .description(
      'run an orchestrated deliberation (seed 004: topologies, coordination, eight phases, consensus) locally, or on a server with --url',
    )
    .argument('<task>', 'what to deliberate on')
    .option('--topology <kind>', 'graph_mesh, star, chain or tree', 'graph_mesh')
    .option('--coordination <style>', 'cpde, dpde or adaptive', 'adaptive')
    .option('--voting <method>', 'weighted, majority, plurality, borda, condorcet or unanimous', 'weighted')
    .option('--rounds <n>', 'maximum rounds (1-10)', '3')
    .option(
      '--seats <n>',
      'number of seats (3-16; roles architect, critic, reviewer, optimizer, red_team, blue_team, …)',
      '6',
    )
    .option(
      '--provider <name>',
      'provider profile for every seat: scripted, openai, anthropic, openrouter, ollama, …',
      'scripted',
    )
    .option('--model <model>', 'model for every seat')
    .option('--base-url <url>', 'base URL of the provider API')
    .option('--api-key-env <name>', "environment variable holding the --base-url endpoint's key")
    .option('--config <file>', 'db8.config.json (default ./db8.config.json)')
    .option('--min-consensus <x>', 'consensus needed to stop early (0-1)')
    .option('--gate <phase...>', 'pause after these phases for approval (locally the operator approves)')
    .option('--reject-gates', 'locally: reject at the first gate instead of approving')
    .option(
      '--tools',
      'model seats may call tools before drafting (run the tests on a draft, read a version, search the lessons)',
    )
    .option(
      '--no-lessons',
      'locally: neither give the seats lessons from the local bank nor keep the lessons of this run',
    )
    .option('--code <language>', 'a code task in this language (javascript or typescript)')
    .option(
      '--tests <file>',
      "the code task's tests: an ES module importing ./solution.mjs (run in the sandbox)",
    )
    .option('--seed <hex>', 'room seed (64 hex digits) for a reproducible local run')
    .option('--url <url>', 'run on this db8 server (needs an admin session: db8 login)')
    .option('--progress', 'report phases and turns on stderr')
    .option('--json', 'print a JSON summary');
  cmd.action(
    runAction(cmd, async (task: string, opts: DeliberateOptions) => {
      if (!task?.trim()) throw new CliError(EXIT_USAGE, 'give a task: db8 deliberate "…"');
      const { deliberate } = await import('./run.ts');
      await deliberate(task, opts);
    }),
  );
}

export interface LessonsOptions {
  minScore?: string;
  limit?: string;
  json?: boolean;
}

function registerLessons(program: Command): void {
  const cmd = program
    .command('lessons')
    .description("list the local lesson bank: what local `db8 deliberate` runs learned (in db8's home)")
    .option('--min-score <x>', 'only lessons scoring at least this (0-1)')
    .option('--limit <n>', 'at most this many (1-200)', '20')
    .option('--json', 'print JSON');
  cmd.action(
    runAction(cmd, async (opts: LessonsOptions) => {
      const { listLocalLessons } = await import('./lessons.ts');
      await listLocalLessons(opts);
    }),
  );
}

/** `deliberate` runs locally like `council`, so help lists it with the local tools, after council. */
export const deliberationCli: CliModule = {
  protocol: 'deliberation',
  register: (program) => {
    register(program);
    registerLessons(program);
  },
  listAfter: 'hash',
};
