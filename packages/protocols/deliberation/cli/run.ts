// The heavy side of `db8 deliberate`: providers, the local runner and the sandbox (from the server's
// deliberation module), or the server's /v1/debates routes with --url.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Budget, createProvider, type Db8Config, loadConfigFile, ProviderConfigError } from '@db8/agents';
import {
  CliError,
  EXIT_INVALID_INPUT,
  EXIT_IO_ERROR,
  EXIT_REJECTED,
  EXIT_USAGE,
  progress as progressLine,
  writeStdout,
} from '@db8/cli/kit';
import { Remote } from '@db8/cli/kit-run';
import type { DeliberationState } from '../rules/index.ts';
import {
  deliberationScript,
  type LocalProgress,
  runLocalDeliberation,
  sandboxSupport,
} from '../server/index.ts';
import type { DeliberateOptions } from './index.ts';
import { LocalLessonBank } from './lesson-bank.ts';
import { reportFromServer, reportFromState } from './report.ts';

/** The default cast, strongest first: the first n seats of these. */
const CAST = [
  ['ana', 'architect', 9.5],
  ['ben', 'critic', 9.1],
  ['cai', 'reviewer', 8.7],
  ['dee', 'optimizer', 8.6],
  ['eli', 'red_team', 8.2],
  ['fay', 'blue_team', 7.9],
  ['gus', 'moderator', 7.6],
  ['hal', 'validator', 7.4],
  ['ivy', 'security', 7.2],
  ['jon', 'proposer', 7.0],
  ['kai', 'generator', 6.8],
  ['lea', 'refactorer', 6.6],
  ['max', 'test_agent', 6.4],
  ['noa', 'teacher', 6.2],
  ['oli', 'critic', 6.0],
  ['pia', 'reviewer', 5.8],
] as const;

function int(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CliError(EXIT_USAGE, `${flag} must be an integer ${min}-${max}`);
  return n;
}

function num(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new CliError(EXIT_USAGE, `${flag} must be a number 0-1`);
  return n;
}

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '-' : `${Math.round(x * 100)}%`;

async function loadConfig(path: string | undefined): Promise<Db8Config> {
  const explicit = path ?? process.env.DB8_CONFIG;
  if (explicit) return loadConfigFile(explicit, true);
  return existsSync('db8.config.json') ? loadConfigFile('db8.config.json', true) : {};
}

interface Plan {
  seats: { id: string; role: string; score: number }[];
  tests: string | null;
  rounds: number | undefined;
  minConsensus: number | undefined;
}

async function planOf(opts: DeliberateOptions): Promise<Plan> {
  const n = int('--seats', opts.seats, 3, 16) ?? 6;
  const seats = CAST.slice(0, n).map(([id, role, score]) => ({ id, role, score }));
  if (opts.tests && !opts.code) throw new CliError(EXIT_USAGE, '--tests needs --code <language>');
  const tests = opts.tests
    ? await readFile(opts.tests, 'utf8').catch((e: Error) => {
        throw new CliError(EXIT_IO_ERROR, `cannot read ${opts.tests}: ${e.message}`);
      })
    : null;
  return {
    seats,
    tests,
    rounds: int('--rounds', opts.rounds, 1, 10),
    minConsensus: num('--min-consensus', opts.minConsensus),
  };
}

export async function deliberate(task: string, opts: DeliberateOptions): Promise<void> {
  const plan = await planOf(opts);
  if (opts.url) return remote(task, opts, plan);
  if (plan.tests) {
    // As a server answers 409: code under test runs in the sandbox or not at all.
    const sandbox = sandboxSupport();
    if (!sandbox.ok) throw new CliError(EXIT_REJECTED, `SANDBOX_UNAVAILABLE: ${sandbox.reason}`);
  }
  const config = await loadConfig(opts.config).catch((e: Error) => {
    throw new CliError(EXIT_INVALID_INPUT, e.message);
  });
  const budget = new Budget(config.budget ?? {});
  let providers: Record<string, ReturnType<typeof createProvider>>;
  try {
    providers = Object.fromEntries(
      plan.seats.map((s) => [
        s.id,
        createProvider({
          provider: opts.provider ?? 'scripted',
          ...(opts.model ? { model: opts.model } : {}),
          ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
          ...(opts.apiKeyEnv ? { apiKeyEnv: opts.apiKeyEnv } : {}),
          config,
          env: process.env,
          budget,
          script: deliberationScript,
        }),
      ]),
    );
  } catch (e) {
    if (e instanceof ProviderConfigError) throw new CliError(EXIT_USAGE, e.message);
    throw e;
  }
  const any = Object.values(providers)[0]!;
  const sessionId = `delib_${Date.now().toString(36)}`;
  // The local lesson bank (lesson-bank.ts), as a server's: the best lessons for the task go into
  // the config (so the log's first entry records them); it is held only while read or written.
  const bank = opts.lessons !== false;
  const lessons = bank
    ? await withBank((b) => b.given({ topic: task, task: codeTask(opts) }, Date.now()))
    : [];
  const roomConfig = {
    sessionId,
    topic: task,
    seats: plan.seats.map((s) => ({ ...s, provider: any.profile, model: any.model })),
    topology: opts.topology,
    coordination: opts.coordination,
    voting: opts.voting,
    ...(plan.rounds !== undefined ? { maxRounds: plan.rounds } : {}),
    ...(plan.minConsensus !== undefined ? { minConsensus: plan.minConsensus } : {}),
    ...(opts.gate?.length ? { gates: { phases: opts.gate } } : {}),
    ...(opts.tools ? { tools: true } : {}),
    ...(opts.code ? { task: { kind: 'code', language: opts.code, tests: plan.tests } } : {}),
    ...(lessons.length ? { lessons } : {}),
    // A local run has no wall clock to race: a slow model must not time a phase out.
    timeoutMs: 7 * 86_400_000,
    phaseTimeoutMs: 86_400_000,
  };
  // Live counts on a terminal (plain lines in a log); --progress adds a line per event.
  const status = progressLine();
  let where = '';
  let turns = 0;
  let failed = 0;
  const onProgress = (p: LocalProgress) => {
    if (p.kind === 'phase') where = `[round ${p.round}] ${p.phase}`;
    if (p.kind === 'turn') {
      turns++;
      if (!p.ok) failed++;
    }
    // Off a terminal the status line is itself the phase line.
    if (opts.progress && (status.tty || p.kind !== 'phase')) {
      const line =
        p.kind === 'phase'
          ? `[round ${p.round}] ${p.phase}`
          : p.kind === 'turn'
            ? `  ${p.seat} ${p.type}${p.ok ? '' : ` FAILED (${p.detail})`}`
            : p.kind === 'measure'
              ? `  v${p.version} measured: ${pct(p.passRate)} (${p.status})`
              : `  gate after ${p.phase}: ${p.decision}`;
      status.line(line);
    }
    status.update(`${where} · ${turns} turns${failed ? ` (${failed} failed)` : ''}`, p.kind === 'phase');
  };
  let run: Awaited<ReturnType<typeof runLocalDeliberation>>;
  try {
    run = await runLocalDeliberation({
      config: roomConfig,
      providers,
      ...(opts.seed ? { seed: opts.seed } : {}),
      ...(opts.rejectGates ? { gate: 'reject' as const } : {}),
      onProgress,
    });
  } catch (e) {
    const m = (e as Error).message;
    if (/config|schema|Invalid/i.test(m)) throw new CliError(EXIT_INVALID_INPUT, `bad deliberation: ${m}`);
    throw e;
  } finally {
    status.done();
  }
  if (bank) {
    const kept = await withBank((b) => b.record(run.state, Math.max(Date.now(), run.room.lastTs)));
    if (opts.progress)
      status.line(`lessons: ${lessons.length} given, ${kept.stored} kept, ${kept.counted} uses counted`);
  }
  await report(
    run.state,
    {
      scripted: any.scripted,
      calls: run.calls,
      ms: run.durationMs,
      entries: run.room.entries.length,
      genesis: run.room.entries[0],
    },
    opts,
  );
  if (run.state.status !== 'completed')
    throw new CliError(
      EXIT_REJECTED,
      `deliberation ${run.state.status}: ${run.state.failure?.message ?? run.state.cancellation?.reason ?? ''}`,
    );
}

const codeTask = (opts: DeliberateOptions) => (opts.code ? { kind: 'code' } : undefined);

async function withBank<T>(fn: (bank: LocalLessonBank) => Promise<T>): Promise<T> {
  const bank = await LocalLessonBank.open().catch((e: Error) => {
    throw new CliError(
      EXIT_IO_ERROR,
      `cannot open the local lesson bank: ${e.message} (--no-lessons skips it)`,
    );
  });
  try {
    return await fn(bank);
  } finally {
    await bank.close();
  }
}

async function report(
  s: DeliberationState,
  meta: { scripted: boolean; calls: number; ms: number; entries: number; genesis: unknown },
  opts: DeliberateOptions,
): Promise<void> {
  const o = s.outcome;
  if (opts.json) {
    await writeStdout(`${JSON.stringify(reportFromState(s, meta), null, 2)}\n`);
    return;
  }
  const lines = [
    `deliberation ${s.config.sessionId} ${s.status}${meta.scripted ? ' (SCRIPTED)' : ''}: ${s.config.topology}, ${s.config.coordination}${s.plan ? ` (${s.plan.style})` : ''}, ${s.config.seats.length} seats, ${s.rounds.length} round(s)`,
    ...s.rounds.map(
      (r) =>
        `round ${r.round}: consensus ${pct(r.confidence)} · winner ${r.winner ?? '-'}${r.reachedConsensus ? ' · reached' : ''}`,
    ),
    o
      ? `winner ${o.winner ?? '-'} (${o.method}${o.via ? ` via ${o.via}` : ''}) · consensus ${pct(o.confidence)}`
      : 'no outcome',
    o?.summary ? `summary: ${o.summary.split('\n')[0]}` : '',
    ...s.codeVersions.map(
      (v) => `v${v.version} ${v.seat} ${v.phase} r${v.round}: tests ${pct(v.testPassRate)}`,
    ),
    `${s.turns.length} turns (${s.turns.filter((t) => t.action.type === 'failed').length} failed), ${meta.calls} calls, ${meta.entries} log entries, ${meta.ms} ms`,
    s.failure ? `failure: ${s.failure.code}: ${s.failure.message}` : '',
    s.cancellation ? `cancelled by ${s.cancellation.by}: ${s.cancellation.reason}` : '',
  ];
  await writeStdout(`${lines.filter(Boolean).join('\n')}\n`);
}

async function remote(task: string, opts: DeliberateOptions, plan: Plan): Promise<void> {
  const r = new Remote(opts.url);
  const token = await r.token();
  const call = async (method: string, path: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${r.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (e) {
      throw new CliError(EXIT_IO_ERROR, `cannot reach ${r.url}: ${(e as Error).message}`);
    }
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok) {
      const err = (json?.error ?? {}) as { code?: string; message?: string };
      throw new CliError(
        res.status === 400 ? EXIT_INVALID_INPUT : EXIT_REJECTED,
        `${method} ${path}: ${res.status} ${err.code ?? ''} ${err.message ?? ''}`.trim(),
      );
    }
    return json ?? {};
  };
  const created = await call('POST', '/v1/debates', {
    topic: task,
    participants: plan.seats.map((s) => ({
      name: s.id,
      role: s.role,
      score: s.score,
      provider: opts.provider ?? 'scripted',
      ...(opts.model ? { model: opts.model } : {}),
      ...(opts.baseUrl ? { base_url: opts.baseUrl } : {}),
      ...(opts.apiKeyEnv ? { api_key_env: opts.apiKeyEnv } : {}),
    })),
    topology_type: opts.topology,
    coordination_protocol: opts.coordination,
    voting_method: opts.voting,
    ...(plan.rounds !== undefined ? { max_rounds: plan.rounds } : {}),
    ...(plan.minConsensus !== undefined ? { min_consensus: plan.minConsensus } : {}),
    ...(opts.gate?.length ? { enable_approval_gates: true, gate_phases: opts.gate } : {}),
    ...(opts.tools ? { enable_tools: true } : {}),
    ...(opts.code ? { task: { kind: 'code', language: opts.code, tests: plan.tests } } : {}),
  });
  const id = String(created.id);
  const startedAt = Date.now();
  const status = progressLine();
  if (opts.progress) status.line(`created ${id} on ${r.url}`);
  try {
    let last = '';
    for (;;) {
      const st = (await call('GET', `/v1/debates/${id}/status`)) as {
        status: string;
        current_round: number;
        phase: string;
      };
      const where = `[round ${st.current_round}] ${st.phase} (${st.status})`;
      // A phase change is news: a log gets a line for each (a terminal sees them in place).
      status.update(where, true);
      if (opts.progress && status.tty && where !== last) status.line(where);
      if (opts.progress && st.status === 'paused' && where !== last)
        // Gates on a server are the reviewers' to decide (db8 deliberate only watches).
        status.line(`waiting at a gate: POST ${r.url}/v1/debates/${id}/approve`);
      last = where;
      if (['completed', 'failed', 'cancelled'].includes(st.status)) break;
      await new Promise((res) => setTimeout(res, 250));
    }
  } finally {
    status.done();
  }
  const res = (await call('GET', `/v1/debates/${id}/results`)) as Record<string, unknown> & {
    status: string;
  };
  if (opts.json) {
    const ms = Date.now() - startedAt;
    const report = reportFromServer(
      { id, url: r.url, scripted: (opts.provider ?? 'scripted') === 'scripted', ms },
      {
        detail: await call('GET', `/v1/debates/${id}`),
        results: res,
        audit: await call('GET', `/v1/debates/${id}/audit`),
        drivers: await call('GET', `/v1/rooms/${id}/drivers`),
        genesis: ((await call('GET', `/v1/rooms/${id}/entries?fromSeq=0&limit=1`)).entries as unknown[])?.[0],
      },
    );
    await writeStdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const rounds =
      (res.rounds as { round: number; consensus: number; winner: string | null; reached: boolean }[]) ?? [];
    const versions =
      (res.code_versions as {
        version: number;
        seat: string;
        phase: string;
        test_pass_rate: number | null;
      }[]) ?? [];
    await writeStdout(
      `${[
        `deliberation ${id} on ${r.url}: ${res.status}`,
        ...rounds.map(
          (x) =>
            `round ${x.round}: consensus ${pct(x.consensus)} · winner ${x.winner ?? '-'}${x.reached ? ' · reached' : ''}`,
        ),
        `winner ${res.winner ?? '-'} · consensus ${pct(res.confidence as number | null)}`,
        ...versions.map((v) => `v${v.version} ${v.seat} ${v.phase}: tests ${pct(v.test_pass_rate)}`),
      ].join('\n')}\n`,
    );
  }
  if (res.status !== 'completed') throw new CliError(EXIT_REJECTED, `deliberation ${res.status}`);
}
