import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Budget,
  createProvider,
  type Db8Config,
  loadConfigFile,
  type Provider,
  protocolSection,
} from '@db8/agents';
import { loadOrCreateLocalKey } from '@db8/cli/kit-run';
import { truncateCodePoints } from '@db8/core';
import {
  abortCouncil,
  type CouncilProgress,
  type CouncilRun,
  completeWriteback,
  councilScript,
  runCouncil,
} from '../agent/index.ts';
import { ARTIFACT_PATHS, type FinalPacket, ROLES, type Role, type TurnRecord } from '../rules/index.ts';
import {
  artifactHashes,
  decisionRecord,
  writeDecisionRecord,
  writeRunArtifacts,
  writeRunLog,
} from './artifacts.ts';
import { newRunId, relToHome, runDir } from './files.ts';
import { openIndex } from './reindex.ts';

/**
 * One local-first council run: providers from flags/env/db8.config.json, the council driver, then
 * persistence — artifacts, the decision record (writeback), the log (a signed journal bundle of
 * the run's LocalRoom, as a server room exports), the index. A storage failure
 * before the writeback aborts the run (a structural failure); role failures only degrade it.
 */

export class StorageError extends Error {}

export interface LocalRunOptions {
  home: string;
  question: string;
  context?: string;
  outputType?: 'decision' | 'worklog';
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** The variable holding the key for `baseUrl` (a profile's key goes only to its own endpoint). */
  apiKeyEnv?: string;
  /** db8.config.json path; default ./db8.config.json, then <home>/db8.config.json. */
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  clock?: () => number;
  signal?: AbortSignal;
  onProgress?: (p: CouncilProgress) => void;
  /** Write the PGlite index (default true; the benchmark measures without it too). */
  index?: boolean;
  runId?: string;
  /** Re-running a degraded run: its id, and its turns (successful ones are reused as recorded). */
  rerunOf?: string;
  reuse?: readonly TurnRecord[];
}

export interface LocalRunResult {
  runId: string;
  status: 'completed' | 'aborted';
  runDir: string;
  packet: FinalPacket | null;
  packetSha256: string | null;
  recordPath: string | null;
  run: CouncilRun;
  /** Turns submitted again from the re-run's earlier run (0 for a new run). */
  reused: number;
}

export async function loadCouncilConfig(
  home: string,
  path?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Db8Config> {
  const explicit = path ?? env.DB8_CONFIG;
  if (explicit) return loadConfigFile(explicit, true);
  for (const candidate of ['db8.config.json', join(home, 'db8.config.json')]) {
    if (existsSync(candidate)) return loadConfigFile(candidate, true);
  }
  return {};
}

/** Who plays each role: flags for everyone, else `council.roles` in the config, else the defaults. */
export function councilProviders(opts: LocalRunOptions, config: Db8Config): Record<Role, Provider> {
  const env = opts.env ?? process.env;
  const budget = new Budget(config.budget ?? {});
  const out = {} as Record<Role, Provider>;
  for (const role of ROLES) {
    const own = opts.provider === undefined ? protocolSection(config, 'council')?.roles?.[role] : undefined;
    out[role] = createProvider({
      ...((opts.provider ?? own?.provider) ? { provider: opts.provider ?? own?.provider } : {}),
      ...((opts.model ?? own?.model) ? { model: opts.model ?? own?.model } : {}),
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.apiKeyEnv ? { apiKeyEnv: opts.apiKeyEnv } : {}),
      config,
      env,
      budget,
      script: councilScript,
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  }
  return out;
}

export async function runLocalCouncil(opts: LocalRunOptions): Promise<LocalRunResult> {
  const env = opts.env ?? process.env;
  const clock = opts.clock ?? Date.now;
  const config = await loadCouncilConfig(opts.home, opts.configPath, env);
  const providers = councilProviders(opts, config);
  const runId = opts.runId ?? newRunId(clock());
  const dir = runDir(opts.home, runId);
  const run = await runCouncil({
    runId,
    question: opts.question,
    ...(opts.context ? { context: opts.context } : {}),
    ...(opts.outputType ? { outputType: opts.outputType } : {}),
    ...(opts.rerunOf ? { rerunOf: opts.rerunOf } : {}),
    ...(opts.reuse ? { reuse: opts.reuse } : {}),
    providers,
    clock,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  const state = () => run.room.state;
  const result = (): LocalRunResult => ({
    runId,
    status: state().status === 'completed' ? 'completed' : 'aborted',
    runDir: dir,
    packet: state().packet,
    packetSha256: state().packetSha256,
    recordPath: state().writeback?.recordPath ?? null,
    run,
    reused: state().turns.length - run.calls.length,
  });

  const writeLog = async () => writeRunLog(dir, run.room, loadOrCreateLocalKey(opts.home).seed, clock());
  if (state().status !== 'running' || !state().packet) {
    await writeLog().catch(() => {});
    return result();
  }
  try {
    await writeRunArtifacts(dir, state());
    const rel = await writeDecisionRecord(opts.home, decisionRecord(state().packet!, state().packetSha256!));
    completeWriteback(run, rel);
  } catch (e) {
    abortCouncil(run, {
      code: 'STORAGE_UNAVAILABLE',
      message: truncateCodePoints((e as Error).message, 500),
    });
    await writeLog().catch(() => {});
    throw new StorageError(`storage unavailable, run ${runId} aborted: ${(e as Error).message}`);
  }
  const stateSha256 = run.room.stateHash();
  await writeLog();
  if (opts.index !== false) {
    // Under the home's index lock; a new or lost index is first rebuilt from every run's artifacts.
    const { index } = await openIndex(opts.home);
    try {
      await index.putRun({
        state: state(),
        stateSha256,
        runDir: relToHome(opts.home, dir),
        packetPath: relToHome(opts.home, join(dir, ARTIFACT_PATHS.packet)),
        artifacts: artifactHashes(state()),
      });
    } finally {
      await index.close();
    }
  }
  if (run.room.stateHash() !== stateSha256) throw new Error('state changed after the log was written');
  return result();
}
