import { z } from 'zod';
import { MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from './common.ts';
import * as rest from './rest.ts';
import * as ws from './ws.ts';

type Schemas = Record<string, z.ZodType>;

function pick(mod: Record<string, unknown>): Schemas {
  const out: Schemas = {};
  for (const [name, v] of Object.entries(mod)) {
    if (name.endsWith('Schema') && v instanceof z.ZodType) out[name.slice(0, -'Schema'.length)] = v;
  }
  return out;
}

/** JSON Schema of a zod schema as a client sends it (input side: defaults optional, coercions loose). */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
}

/** Machine-readable description of the wire protocol, served at /protocol.json (seed 002 §6.1). */
export function protocolJson(): Record<string, unknown> {
  const conv = (s: Schemas) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, toJsonSchema(v)]));
  return {
    protocol_version: PROTOCOL_VERSION,
    min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
    rest: conv(pick(rest)),
    ws: conv(pick(ws)),
  };
}
