import type { AnyProtocol } from '@db8/core';
import { z } from 'zod';
import { installedProtocols } from '../protocols/registry.ts';

// A protocol whose web module has no create form of its own gets one generated from its zod config
// schema (the same registry the server runs), so a new protocol needs no UI work to be created. Its
// web module may give starting values (`createPreset`).

export type FieldSpec = {
  name: string;
  kind: 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'json';
  required: boolean;
  /** Empty means null (a nullable field) rather than absent. */
  nullable?: boolean;
  options?: string[];
  min?: number;
  max?: number;
  default?: unknown;
  description?: string;
};

export function protocolNamed(name: string): AnyProtocol | undefined {
  return installedProtocols().find((p) => p.name === name);
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
};

/** `T | null` arrives as anyOf [T, {type: null}]: read it as T, marked nullable. */
function unwrapNullable(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const parts = s.anyOf;
  if (parts?.length !== 2) return { schema: s, nullable: false };
  const inner = parts.find((p) => p.type !== 'null');
  if (!inner || !parts.some((p) => p.type === 'null')) return { schema: s, nullable: false };
  return { schema: { ...inner, ...(s.default !== undefined ? { default: s.default } : {}) }, nullable: true };
}

/** The top-level fields of a protocol's config, or null when it is not a plain object (JSON only). */
export function configFields(p: AnyProtocol): FieldSpec[] | null {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(p.configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return null;
  }
  if (schema.type !== 'object' || !schema.properties) return null;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const { schema: s, nullable } = unwrapNullable(raw);
    const base = {
      name,
      required: required.has(name),
      ...(nullable ? { nullable } : {}),
      ...(s.default !== undefined ? { default: s.default } : {}),
      ...(s.description ? { description: s.description } : {}),
    };
    if (s.enum?.every((v) => typeof v === 'string')) {
      return { ...base, kind: 'enum', options: s.enum as string[] };
    }
    if (s.type === 'integer' || s.type === 'number') {
      return {
        ...base,
        kind: s.type,
        ...(s.minimum !== undefined ? { min: s.minimum } : {}),
        ...(s.maximum !== undefined ? { max: s.maximum } : {}),
      };
    }
    if (s.type === 'string') return { ...base, kind: 'string' };
    if (s.type === 'boolean') return { ...base, kind: 'boolean' };
    return { ...base, kind: 'json' };
  });
}

/** Validate a config against the protocol's schema; returns the first issue as text. */
export function checkConfig(p: AnyProtocol, config: unknown): string | null {
  const r = p.configSchema.safeParse(config);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return issue ? `${issue.path.join('.') || 'config'}: ${issue.message}` : 'invalid config';
}

/**
 * The seats people and agents can take: without those of the protocol's reserved roles (the server's
 * own, which it always holds), so the lobby counts seats as the protocol's own listings do.
 */
export function openableSeats<S extends { role: string }>(protocol: string, seats: readonly S[]): S[] {
  const reserved = new Set(protocolNamed(protocol)?.reservedRoles ?? []);
  return seats.filter((s) => !reserved.has(s.role));
}
