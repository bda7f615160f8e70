import type { Script, ScriptStep } from '@db8/agents';

/**
 * The scripted cast of a poker seat (`provider: "scripted"`): a calling station — check when free,
 * else call, else fold — read from the enum of legal kinds in the reply's JSON Schema (agent.ts).
 * Its call records say scripted; it never raises, so it cannot pass for a strategy.
 */
export function pokerScriptReply(jsonSchema: Record<string, unknown>): unknown {
  // biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema.
  const kinds: unknown = (jsonSchema as any)?.properties?.kind?.enum;
  const legal = Array.isArray(kinds) ? kinds : [];
  const kind = ['check', 'call', 'fold'].find((k) => legal.includes(k)) ?? legal[0] ?? 'fold';
  return { kind, amount: null };
}

export const pokerScript: Script = (req): ScriptStep => ({ json: pokerScriptReply(req.jsonSchema) });
