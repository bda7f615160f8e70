import type { Script, ScriptStep } from '@db8/agents';
import {
  type DeliberationView,
  type LegalAction,
  type ScriptOptions,
  scriptedAction,
} from '../rules/index.ts';
import { CONTEXT_MARK } from './turn.ts';

/**
 * The scripted cast of a deliberation (`provider: "scripted"`, every role): it answers each of the
 * turn's structured requests (turn.ts) with what the pure protocol's `scriptedAction` picks from
 * the request's context block — the seat, round, phase, step, layout and the legal action, all taken
 * from the seat's own view — so a scripted seat is exactly the protocol's scripted seat, never
 * topology-blind. Every text starts "[scripted]" and the call records say scripted. Reflections
 * (after failing tests) are fixed, labelled sentences.
 */

const S = '[scripted]';

export const scriptedText: ScriptOptions['text'] = (c) =>
  `${S} ${c.seat} ${c.kind} for round ${c.round} pass ${c.pass}`;

interface Context {
  seat: string;
  round: number;
  phase: DeliberationView['phase'];
  pass: number;
  step: DeliberationView['step'];
  layout: DeliberationView['layout'];
  legal: LegalAction;
}

function contextOf(prompt: string): Context | null {
  const line = prompt.split('\n').find((l) => l.startsWith(CONTEXT_MARK));
  if (!line) return null;
  try {
    return JSON.parse(line.slice(CONTEXT_MARK.length)) as Context;
  } catch {
    return null;
  }
}

/** The reply the scripted cast gives one request (exported for tests and the local runner). */
export function deliberationScriptReply(
  req: { schemaName: string; prompt: string },
  opts: ScriptOptions = {},
): unknown {
  if (req.schemaName === 'deliberation_reflection')
    return {
      rootCause: `${S} the draft did not meet the tests`,
      whatWentWrong: `${S} some tests failed`,
      whatToChange: `${S} follow the failing assertions`,
      confidence: 0.5,
    };
  const c = contextOf(req.prompt);
  if (!c) return { error: `${S} no context in the request` };
  const view = {
    you: { kind: 'debater', seat: c.seat, ready: true },
    round: c.round,
    phase: c.phase,
    pass: c.pass,
    step: c.step,
    layout: c.layout,
  } as unknown as DeliberationView;
  const action = scriptedAction(
    view,
    { actions: [c.legal], turnToken: 'scripted' },
    { text: scriptedText, ...opts },
  );
  if (!action) return { error: `${S} nothing to do` };
  const {
    type: _type,
    call: _call,
    testResults: _t,
    reflections: _r,
    ...body
  } = action as Record<string, unknown>;
  return body;
}

export const deliberationScript: Script = (req): ScriptStep => ({
  json: deliberationScriptReply({ schemaName: req.schemaName, prompt: req.messages[0]?.content ?? '' }),
});
