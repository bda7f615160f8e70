import type { SeatAgent } from '@db8/server/kit';
import type { DeliberationView, LegalAction } from '../rules/index.ts';
import { runSandboxed, type SandboxOptions, sandboxSupport } from './sandbox.ts';
import { playTurn, turnKey, turnOf } from './turn.ts';

/**
 * Deliberation seats of every role played by a model (or the scripted cast) through the existing
 * providers: one decision per turn the seat holds, keyed by round/phase/pass/step, built from the
 * seat's own view and legal action (turn.ts). A failed call is submitted as the protocol's
 * `failed` turn with the call's error — a recorded failed turn, never invented content. Drafts in a
 * code task with tests go through Reflexion against the server's sandbox. The operator seat takes
 * no model turns: its measurements come from the module's measurer (measure.ts).
 */
export function deliberationAgent(sandbox: SandboxOptions = {}): SeatAgent {
  return (ctx) => {
    const view = ctx.view as DeliberationView;
    const legal = ctx.legal as LegalAction[];
    if (!turnOf(legal) || !ctx.turnToken) return [];
    const tests = view.config.task.kind === 'code' ? view.config.task.tests : null;
    if (tests && awaitingMeasurement(view, ctx.now, sandbox)) return []; // the measure entry pokes us again
    return [
      {
        key: turnKey(view),
        async run(provider, signal) {
          const out = await playTurn({ seat: ctx.seat, view, legal, persona: ctx.persona }, provider, {
            signal,
            ...(tests ? { test: (code) => runSandboxed({ ...code, tests }, sandbox) } : {}),
          });
          if (!out) return { action: null, record: null, error: null };
          return {
            action: out.action,
            record: out.records.at(-1) ?? null,
            calls: out.records.slice(0, -1),
            error: out.error,
          };
        },
      },
    ];
  };
}

/** How long a seat waits for the server to measure a version it can see (then it acts anyway). */
export const MEASURE_WAIT_MS = 30_000;

/**
 * A seat of a code task waits while a code version it can see is not yet measured (so it reads the
 * pass rate before it critiques, reviews or ranks, and every version is measured before the session
 * ends) — unless this server cannot run the sandbox, or the version has waited past MEASURE_WAIT_MS.
 */
export function awaitingMeasurement(
  view: DeliberationView,
  now: number,
  sandbox: SandboxOptions = {},
): boolean {
  if (!sandboxSupport(sandbox).ok) return false;
  return view.codeVersions.some((v) => {
    if (v.measuredAt !== null) return false;
    const at = view.turns.find((t) => t.seq === v.turnSeq)?.at ?? now;
    return now - at < MEASURE_WAIT_MS;
  });
}
