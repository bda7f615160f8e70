import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { toJsonSchema } from '../schemas/protocol-json.ts';
import { nulError, nulPath } from './strict-json.ts';

/**
 * Zod as Fastify's validator (request parts) with no serializer (responses are plain JSON), and a
 * @fastify/swagger transform that turns the same zod schemas into JSON Schema for /docs. This is the
 * small part of fastify-type-provider-zod we need, on zod 4's own z.toJSONSchema.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (!(schema instanceof z.ZodType)) throw new Error('route schemas must be zod schemas');
  // Bodies were checked by the strict parser; params and query strings get the same NUL rule here.
  const checkNul = httpPart === 'params' || httpPart === 'querystring';
  return (data: unknown) => {
    const at = checkNul ? nulPath(data) : null;
    if (at !== null) return { error: nulError(at) };
    const r = schema.safeParse(data);
    // Returning the ZodError lets the error handler list the issues (path + message, never values).
    return r.success ? { value: r.data } : { error: r.error };
  };
};

export const plainSerializerCompiler = () => (data: unknown) => JSON.stringify(data);

const REQUEST_PARTS = ['body', 'querystring', 'params', 'headers'] as const;

function strip(js: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = js;
  return rest;
}

/** @fastify/swagger `transform`: zod -> JSON Schema, request parts as input, responses as output. */
export function swaggerTransform({ schema, url }: { schema: unknown; url: string }): {
  schema: Record<string, unknown>;
  url: string;
} {
  if (!schema || typeof schema !== 'object') return { schema: {}, url };
  const src = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...src };
  for (const part of REQUEST_PARTS) {
    const s = src[part];
    if (s instanceof z.ZodType) out[part] = strip(toJsonSchema(s, 'input'));
  }
  const response = src.response;
  if (response && typeof response === 'object') {
    const conv: Record<string, unknown> = {};
    for (const [code, s] of Object.entries(response as Record<string, unknown>)) {
      conv[code] = s instanceof z.ZodType ? strip(toJsonSchema(s, 'output')) : s;
    }
    out.response = conv;
  }
  return { schema: out, url };
}
