import type { AnyProtocol } from '@db8/core';
import { z } from 'zod';

// A protocol whose web module has no create form of its own gets one generated from its zod config
// schema (the same registry the server runs), so a new protocol needs no UI work to be created. The
// schema is read through zod's own JSON Schema export (`z.toJSONSchema`, input side: what a caller
// may send) rather than zod's internals, which change between versions. What the form cannot draw
// as inputs (records, unions of objects, arrays of objects, recursive parts) is a JSON part.

type Base = {
  name: string;
  required: boolean;
  default?: unknown;
  description?: string;
};
/** One input: text, number, checkbox or select. */
export type SimpleField = Base & {
  kind: 'string' | 'integer' | 'number' | 'boolean' | 'enum';
  /** Empty means null (a nullable field) rather than absent. */
  nullable?: boolean;
  options?: string[];
  min?: number;
  max?: number;
};
export type ConfigField =
  | SimpleField
  | (Base & { kind: 'object'; fields: ConfigField[] })
  | (Base & { kind: 'array'; item: SimpleField; minItems?: number; maxItems?: number })
  | (Base & { kind: 'json' });

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
};

const isNull = (s: JsonSchema) => s.type === 'null';

/** `T | null` arrives as anyOf [T, {type: null}]: read it as T, marked nullable. */
function unwrapNullable(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const parts = s.anyOf ?? s.oneOf;
  if (parts?.length !== 2 || !parts.some(isNull)) return { schema: s, nullable: false };
  const inner = parts.find((p) => !isNull(p)) as JsonSchema;
  const { anyOf: _a, oneOf: _o, ...rest } = s;
  return {
    schema: { ...rest, ...inner, ...(s.default !== undefined ? { default: s.default } : {}) },
    nullable: true,
  };
}

/** The string options of an enum, a literal, or a union of string literals; else null. */
function options(s: JsonSchema): string[] | null {
  if (s.enum?.length && s.enum.every((v) => typeof v === 'string')) return s.enum as string[];
  if (typeof s.const === 'string') return [s.const];
  const parts = s.anyOf ?? s.oneOf;
  if (parts?.length && parts.every((p) => typeof p.const === 'string' || p.enum))
    return parts.flatMap((p) => options(p) ?? []);
  return null;
}

function simple(base: Base, s: JsonSchema, nullable: boolean): SimpleField | null {
  const field = { ...base, ...(nullable ? { nullable } : {}) };
  const opts = options(s);
  if (opts) return { ...field, kind: 'enum', options: opts };
  if (s.type === 'integer' || s.type === 'number')
    return {
      ...field,
      kind: s.type,
      ...(s.minimum !== undefined ? { min: s.minimum } : {}),
      ...(s.maximum !== undefined ? { max: s.maximum } : {}),
    };
  if (s.type === 'string' || s.type === 'boolean') return { ...field, kind: s.type };
  return null;
}

function fieldOf(name: string, required: boolean, raw: JsonSchema): ConfigField {
  const { schema: s, nullable } = unwrapNullable(raw);
  const base: Base = {
    name,
    required,
    ...(s.default !== undefined ? { default: s.default } : {}),
    ...(s.description ? { description: s.description } : {}),
  };
  const one = simple(base, s, nullable);
  if (one) return one;
  // A nullable object or list has no empty input to mean null: it is a JSON part.
  if (!nullable && s.type === 'object' && s.properties && !s.$ref) {
    const req = new Set(s.required ?? []);
    return {
      ...base,
      kind: 'object',
      fields: Object.entries(s.properties).map(([k, v]) => fieldOf(k, req.has(k), v)),
    };
  }
  if (!nullable && s.type === 'array' && !s.prefixItems && s.items && !Array.isArray(s.items)) {
    const item = simple({ name: 'item', required: true }, unwrapNullable(s.items).schema, false);
    if (item)
      return {
        ...base,
        kind: 'array',
        item,
        ...(s.minItems !== undefined ? { minItems: s.minItems } : {}),
        ...(s.maxItems !== undefined ? { maxItems: s.maxItems } : {}),
      };
  }
  return { ...base, kind: 'json' };
}

/** The protocol's config as a tree of fields; the root is named '' (a JSON part if it is not an object). */
export function configTree(p: AnyProtocol): ConfigField {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(p.configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return { name: '', required: true, kind: 'json' };
  }
  return fieldOf('', true, schema);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The form's starting value for a field: what the module's preset gives, else the schema's default;
 * a required checkbox starts unticked and a required list empty, so untouched means false and [].
 */
export function startingValue(f: ConfigField, given: unknown): unknown {
  if (f.kind === 'object') {
    const from = given !== undefined ? given : f.default !== undefined ? f.default : {};
    if (!isObject(from)) return from;
    const out: Record<string, unknown> = { ...from };
    for (const c of f.fields) {
      const v = startingValue(c, from[c.name]);
      if (v !== undefined) out[c.name] = v;
    }
    return out;
  }
  if (given !== undefined) return given;
  if (f.default !== undefined) return f.default;
  if (f.required && f.kind === 'boolean') return false;
  if (f.required && f.kind === 'array') return [];
  return undefined;
}
