import type { Script, ScriptStep } from '@db8/agents';
import { truncateCodePoints } from '@db8/core';

/**
 * The scripted cast of a debate (`provider: "scripted"`): it answers each of the debate agent's
 * requests (agent.ts) from the request alone — the seat and round from the prompt, the claim ids,
 * debaters and candidates from the reply's JSON Schema. Everything it writes starts "[scripted]"
 * and its call records say scripted, so a scripted debate can never pass for model output.
 */

const S = '[scripted]';

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema.
type Js = any;

function enumAt(schema: Js, path: readonly string[]): string[] {
  let node = schema;
  for (const p of path) node = node?.[p];
  return Array.isArray(node?.enum) ? node.enum.filter((v: unknown) => typeof v === 'string') : [];
}

function numberAt(schema: Js, path: readonly string[], fallback: number): number {
  let node = schema;
  for (const p of path) node = node?.[p];
  return typeof node === 'number' ? node : fallback;
}

const seatOf = (prompt: string) => /You are (\w+)/.exec(prompt)?.[1] ?? 'a debater';
const roundOf = (prompt: string) =>
  Number(/\(round (\d+)\)|Round (\d+)/.exec(prompt)?.slice(1).find(Boolean) ?? 1);

function submission(prompt: string, schema: Js): unknown {
  const seat = seatOf(prompt);
  const round = roundOf(prompt);
  const maxContent = numberAt(schema, ['properties', 'content', 'maxLength'], 4000);
  const maxClaims = numberAt(schema, ['properties', 'claims', 'maxItems'], 2);
  const url = (i: number) => `https://example.org/db8/scripted/${seat}/${round}/${i}`;
  return {
    content: truncateCodePoints(`${S} ${seat}, round ${round}: a fixed script, not an argument.`, maxContent),
    claims: [1, 2].slice(0, Math.max(1, maxClaims)).map((i) => ({
      id: `c${i}`,
      text: `${S} claim ${i} of ${seat} in round ${round}`,
      support: [{ kind: 'citation', ref: url(i) }],
      confidence: 60 + i * 10,
    })),
    citations: [1, 2].map((i) => ({ url: url(i), title: `${S} source ${i}` })),
  };
}

export function debateScriptReply(req: { schemaName: string; prompt: string; jsonSchema: Js }): unknown {
  const { jsonSchema: js, prompt } = req;
  switch (req.schemaName) {
    case 'debate_submission':
      return submission(prompt, js);
    case 'debate_verdicts': {
      const ids = enumAt(js, ['properties', 'claims', 'items', 'properties', 'claim_id']);
      return {
        claims: ids
          .slice(0, 5)
          .map((claim_id) => ({ claim_id, verdict: 'unclear', reason: `${S} not checked` })),
      };
    }
    case 'debate_scores': {
      const debaters = enumAt(js, ['properties', 'cards', 'items', 'properties', 'debater']);
      return {
        cards: debaters.slice(0, 12).map((debater) => ({ debater, e: 50, r: 50, c: 50, v: 50, y: 50 })),
      };
    }
    case 'debate_continue':
      // Ends after the first round, so a scripted debate reaches its results quickly.
      return { choice: 'end' };
    case 'debate_final_vote': {
      const candidates = enumAt(js, ['properties', 'approval', 'items']);
      return { approval: candidates.slice(0, 1) };
    }
    default:
      return { error: `${S} no script for ${req.schemaName}` };
  }
}

export const debateScript: Script = (req): ScriptStep => ({
  json: debateScriptReply({
    schemaName: req.schemaName,
    prompt: req.messages[0]?.content ?? '',
    jsonSchema: req.jsonSchema,
  }),
});
