import type { Script, ScriptStep } from '@db8/agents';
import { truncateCodePoints } from '@db8/core';

/**
 * A deterministic script that plays any council role for demos and tests (`--provider scripted`).
 * Everything it writes starts with "[scripted]" and its call records say `scripted: true`, so a
 * scripted packet can never pass for model output. It reads what it needs from the request: the
 * role from the system prompt, the challenge target and assessable roles from the JSON Schema,
 * today's date from the Judge's prompt.
 */

export interface ScriptInput {
  system: string;
  prompt: string;
  schemaName: string;
  jsonSchema: Record<string, unknown>;
}

const STANCE: Record<string, ['support' | 'oppose' | 'conditional', number]> = {
  Proponent: ['support', 0.8],
  Critic: ['oppose', 0.6],
  Analyst: ['conditional', 0.7],
  Synthesizer: ['conditional', 0.7],
  Judge: ['conditional', 0.6],
};

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema.
function enumAt(schema: any, path: string[]): string[] {
  let node = schema;
  for (const p of path) node = node?.[p];
  return Array.isArray(node?.enum) ? node.enum : [];
}

export function scriptedCouncilReply(req: ScriptInput): unknown {
  const role = /You are the (\w+)/.exec(req.system)?.[1] ?? 'Proponent';
  const question = truncateCodePoints(/^Question: (.*)$/m.exec(req.prompt)?.[1] ?? 'the question', 120);
  const [stance, confidence] = STANCE[role] ?? ['conditional', 0.5];
  const s = (text: string) => `[scripted] ${text}`;
  switch (req.schemaName) {
    case 'council_opening':
      return {
        claim: s(`${role} position on: ${question}`),
        rationale: s(`The ${role} argues from its brief; no model produced this text.`),
        risks: [
          { risk: s(`${role}: the main risk is acting on unverified assumptions`), severity: 'medium' },
        ],
        stance,
        confidence,
      };
    case 'council_challenge': {
      const target = enumAt(req.jsonSchema, ['properties', 'target'])[0] ?? 'Proponent';
      return {
        target,
        challenges: [
          {
            point: s(`${target}'s claim`),
            challenge: s(`What evidence would change the ${target}'s mind?`),
            severity: 'medium',
          },
        ],
      };
    }
    case 'council_revision': {
      const revised = role === 'Critic' ? 'conditional' : stance;
      return {
        claim: s(`${role} revised position on: ${question}`),
        rationale: s(`The ${role} keeps its core view and narrows it after round 2.`),
        stance: revised,
        conditions: revised === 'conditional' ? [s('a time-boxed pilot with a rollback plan')] : [],
        confidence,
        deltas:
          revised === stance
            ? []
            : [{ aspect: s('stance'), before: stance, after: revised, promptedBy: 'Proponent' }],
        answers: [],
      };
    }
    case 'council_assessment': {
      const roles = enumAt(req.jsonSchema, ['properties', 'positions', 'items', 'properties', 'role']);
      return {
        positions: roles.map((r) => ({
          role: r,
          stance: r === 'Proponent' ? 'support' : 'conditional',
          note: s(`${r} as read by the script`),
        })),
        commonGround: [s('a pilot before a full commitment')],
        disagreements: [s('how much evidence is enough')],
        proposal: s('Run a time-boxed pilot, then decide with its results.'),
      };
    }
    case 'council_verdict': {
      const today = /Today is (\d{4}-\d{2}-\d{2})/.exec(req.prompt)?.[1] ?? '2099-01-01';
      return {
        decision: s('Adopt as a time-boxed pilot.'),
        verdict: 'adopt_with_conditions',
        rationale: s(
          'The roles converge on a conditional position; the scripted judge follows the synthesis.',
        ),
        risks: [
          { risk: s('pilot scope creeps'), mitigation: s('fix the pilot scope and end date up front') },
        ],
        nextActions: [
          { action: s('Define the pilot scope and success metric'), owner: 'operator', due: today },
        ],
        quality: 0.5,
      };
    }
    default:
      return { error: s(`no script for ${req.schemaName}`) };
  }
}

/** The script the scripted provider runs for a council. */
export const councilScript: Script = (req): ScriptStep => ({
  json: scriptedCouncilReply({
    system: req.system,
    prompt: req.messages[0]?.content ?? '',
    schemaName: req.schemaName,
    jsonSchema: req.jsonSchema,
  }),
});
