import type { AnyProtocol } from '@db8/core';
import { toJsonSchema } from '../schemas/protocol-json.ts';

type Json = Record<string, unknown>;

/** The action JSON Schema of each protocol, converted once (zod → JSON Schema is not free). */
export class ActionSchemas {
  private readonly cache = new Map<string, Json>();
  constructor(private readonly protocols: ReadonlyMap<string, AnyProtocol>) {}

  of(protocol: string): Json | null {
    const hit = this.cache.get(protocol);
    if (hit) return hit;
    const p = this.protocols.get(protocol);
    if (!p) return null;
    const { $schema: _drop, ...schema } = toJsonSchema(p.actionSchema);
    this.cache.set(protocol, schema);
    return schema;
  }

  /**
   * Each legal action with `schema`: the branch of the protocol's action schema it names. Branches
   * are matched by their `const` properties (a discriminated union's tag, whatever it is called),
   * so no protocol's tag name is known here; without a match the whole action schema is given.
   */
  annotate(protocol: string, actions: readonly unknown[]): Array<{ action: unknown; schema: Json | null }> {
    const whole = this.of(protocol);
    const branches = whole ? branchesOf(whole) : [];
    return actions.map((action) => ({
      action,
      schema: branches.find((b) => matches(b, action)) ?? whole,
    }));
  }
}

function branchesOf(schema: Json): Json[] {
  const list = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  return Array.isArray(list) ? list : [];
}

function matches(branch: Json, action: unknown): boolean {
  if (!action || typeof action !== 'object') return false;
  const props = (branch.properties ?? {}) as Record<string, Json>;
  let tagged = false;
  for (const [key, prop] of Object.entries(props)) {
    if (!prop || typeof prop !== 'object' || !('const' in prop)) continue;
    tagged = true;
    if ((action as Record<string, unknown>)[key] !== prop.const) return false;
  }
  return tagged;
}
