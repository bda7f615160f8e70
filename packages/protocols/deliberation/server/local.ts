import type { Provider } from '@db8/agents';
import { LocalRoom } from '@db8/core';
import {
  type DeliberationResult,
  type DeliberationState,
  deliberation,
  type LegalAction,
  OPERATOR,
} from '../rules/index.ts';
import { analyseCode } from './quality.ts';
import { measurementOf, runSandboxed, type SandboxOptions, type SandboxResult } from './sandbox.ts';
import { playTurn } from './turn.ts';

/**
 * A deliberation run in this process, without a server (`db8 deliberate`, the benchmark): a core
 * LocalRoom folds the log exactly as a server room would; each seat's turn is played by its
 * provider through the same turn code the server's drivers use (turn.ts), the seats that hold the
 * turn together concurrently; the operator measures every code version in the sandbox before the
 * next turn, and decides gates as `gate` says. An action the protocol refuses (a model naming what
 * it cannot see) is recorded as that seat's failed turn with the refusal — never retried into
 * invented content.
 */

export interface LocalDeliberationOptions {
  /** The deliberation config (validated by the protocol). */
  config: unknown;
  /** The provider that plays each seat. */
  providers: Readonly<Record<string, Provider>>;
  seed?: string;
  clock?: () => number;
  /** Run the task's tests against each code version (default on for code tasks with tests). */
  sandbox?: SandboxOptions | false;
  /** What the operator does at a gate (default approve). */
  gate?: 'approve' | 'reject';
  signal?: AbortSignal;
  onProgress?: (p: LocalProgress) => void;
  /** Stop after this many loop steps (a guard; default 10 000). */
  maxSteps?: number;
}

export type LocalProgress =
  | { kind: 'phase'; round: number; phase: string }
  | { kind: 'turn'; seat: string; type: string; ok: boolean; detail?: string }
  | { kind: 'measure'; version: number; passRate: number | null; status: string }
  | { kind: 'gate'; phase: string; decision: 'approve' | 'reject' };

export interface LocalDeliberation {
  room: LocalRoom<typeof deliberation>;
  state: DeliberationState;
  result: DeliberationResult | null;
  /** Model calls made (every attempt of every turn). */
  calls: number;
  measurements: { version: number; result: SandboxResult }[];
  durationMs: number;
}

export async function runLocalDeliberation(opts: LocalDeliberationOptions): Promise<LocalDeliberation> {
  const clock = opts.clock ?? Date.now;
  const started = Date.now();
  const room = new LocalRoom({
    protocol: deliberation,
    config: opts.config,
    seed: opts.seed ?? randomSeed(),
    now: clock(),
  });
  const now = () => Math.max(clock(), room.lastTs);
  const tests = room.state.config.task.kind === 'code' ? room.state.config.task.tests : null;
  const sandbox = opts.sandbox === false ? null : (opts.sandbox ?? {});
  const measurements: LocalDeliberation['measurements'] = [];
  let calls = 0;
  let phaseKey = '';
  const max = opts.maxSteps ?? 10_000;
  for (let step = 0; !room.closed && step < max; step++) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
    room.tick(now());
    if (room.closed) break;
    const s = room.state;
    const key = `${s.round}.${s.phase}`;
    if (key !== phaseKey) {
      phaseKey = key;
      opts.onProgress?.({ kind: 'phase', round: s.round, phase: s.phase });
    }
    if (tests && sandbox) {
      const pending = s.codeVersions.filter(
        (v) => v.measuredAt === null && !measurements.some((m) => m.version === v.version),
      );
      if (pending.length) {
        for (const v of pending) {
          const r = await runSandboxed({ language: v.language, source: v.code, tests }, sandbox);
          const quality = await analyseCode(v.code, v.language);
          measurements.push({ version: v.version, result: r });
          opts.onProgress?.({ kind: 'measure', version: v.version, passRate: r.passRate, status: r.status });
          if (r.status !== 'unsupported')
            room.must(
              OPERATOR,
              { type: 'measure', version: v.version, measurement: measurementOf(r, v.code, quality) },
              now(),
            );
        }
        continue;
      }
    }
    if (s.status === 'paused') {
      const decision = opts.gate ?? 'approve';
      opts.onProgress?.({ kind: 'gate', phase: s.phase, decision });
      room.must(OPERATOR, { type: decision, reason: `local run: ${decision}` }, now());
      continue;
    }
    const waiting = room.view({ kind: 'admin' }).waitingFor;
    if (waiting.length === 0) {
      if (!room.advance()) break;
      continue;
    }
    const turns = await Promise.all(
      waiting.map(async (seat) => {
        const provider = opts.providers[seat];
        if (!provider) throw new Error(`no provider for seat ${seat}`);
        const view = room.view({ kind: 'seat', seat });
        const legal = room.legal(seat).actions as LegalAction[];
        const out = await playTurn({ seat, view, legal }, provider, {
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(tests && sandbox ? { test: (code) => runSandboxed({ ...code, tests }, sandbox) } : {}),
        });
        return { seat, out };
      }),
    );
    for (const { seat, out } of turns) {
      if (!out) continue;
      calls += out.records.length;
      const r = room.act(seat, out.action, now());
      if (r.ok) {
        opts.onProgress?.({
          kind: 'turn',
          seat,
          type: out.action.type,
          ok: out.error === null,
          ...(out.error ? { detail: out.error.code } : {}),
        });
        continue;
      }
      if (r.error.code === 'NOT_YOUR_TURN' || r.error.code === 'SESSION_OVER' || r.error.code === 'PAUSED')
        continue;
      const call = 'call' in out.action ? out.action.call : null;
      room.must(
        seat,
        {
          type: 'failed',
          error: { code: 'REFUSED', message: `${r.error.code}: ${r.error.message}`.slice(0, 2000) },
          call,
        },
        now(),
      );
      opts.onProgress?.({ kind: 'turn', seat, type: 'failed', ok: false, detail: r.error.code });
    }
  }
  return {
    room,
    state: room.state,
    result: room.result(),
    calls,
    measurements,
    durationMs: Date.now() - started,
  };
}

function randomSeed(): string {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Buffer.from(b).toString('hex');
}
