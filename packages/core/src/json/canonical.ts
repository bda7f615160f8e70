import { JSON_MAX_DEPTH, JsonError, type JsonErrorCode, type JsonPathSegment } from './errors.ts';
import { isWellFormed } from './wellformed.ts';

/**
 * RFC 8785 (JCS) canonical JSON. JCS is defined as ECMAScript's JSON.stringify serialisation of
 * strings and numbers, with object members sorted by their keys' UTF-16 code units and no
 * whitespace, so those primitives go through the engine's own (fast, exact) JSON.stringify/String.
 *
 * db8 is stricter than JSON.stringify, which silently drops or mangles what JSON cannot hold:
 * undefined, functions, symbols, bigint, non-plain objects (Date, Map, class instances), array holes,
 * NaN/±Infinity, lone surrogates and cycles all throw a JsonError naming the path. So do integers
 * beyond ±(2^53−1) that ES would print without an exponent (2^60 → "1152921504606846976"): they
 * cannot round-trip through parseJson, which rejects such tokens. Doubles printed with an exponent
 * (1e+30) are fine.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const encoder = new TextEncoder();

/** The ES6/JCS serialisation of a finite number (RFC 8785 §3.2.2.3): `-0` → `0`, `1e21` → `1e+21`. */
export function serializeJcsNumber(n: number): string {
  if (!Number.isFinite(n)) throw new JsonError('NON_FINITE_NUMBER', `${n} is not a JSON number`, []);
  return String(n);
}

type Ctx = { path: JsonPathSegment[]; ancestors: object[] };

function fail(ctx: Ctx, depth: number, code: JsonErrorCode, detail: string): JsonError {
  return new JsonError(code, detail, ctx.path.slice(0, depth));
}

function str(s: string, ctx: Ctx, depth: number): string {
  if (!isWellFormed(s)) throw fail(ctx, depth, 'LONE_SURROGATE', 'string contains a lone surrogate');
  return JSON.stringify(s);
}

function num(n: number, ctx: Ctx, depth: number): string {
  if (!Number.isFinite(n)) throw fail(ctx, depth, 'NON_FINITE_NUMBER', `${n} is not a JSON number`);
  if ((n > MAX_SAFE || n < -MAX_SAFE) && n > -1e21 && n < 1e21) {
    throw fail(ctx, depth, 'UNSAFE_INTEGER', `integer ${n} is beyond ±(2^53-1); send it as a string`);
  }
  return String(n);
}

function describe(v: unknown): string {
  if (typeof v !== 'object' || v === null) return typeof v;
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name} object` : 'a non-plain object';
}

function ser(v: unknown, ctx: Ctx, depth: number): string {
  switch (typeof v) {
    case 'string':
      return str(v, ctx, depth);
    case 'number':
      return num(v, ctx, depth);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (v === null) return 'null';
      return container(v, ctx, depth);
    default:
      throw fail(ctx, depth, 'UNSUPPORTED_TYPE', `${typeof v} cannot be represented in JSON`);
  }
}

function container(v: object, ctx: Ctx, depth: number): string {
  if (depth >= JSON_MAX_DEPTH) throw fail(ctx, depth, 'TOO_DEEP', `nesting deeper than ${JSON_MAX_DEPTH}`);
  const { ancestors, path } = ctx;
  for (let d = 0; d < depth; d++) {
    if (ancestors[d] === v)
      throw fail(ctx, depth, 'CYCLE', `value contains itself (first seen at depth ${d})`);
  }
  ancestors[depth] = v;
  if (Array.isArray(v)) {
    const n = v.length;
    if (n === 0) return '[]';
    let out = '[';
    for (let i = 0; i < n; i++) {
      path[depth] = i;
      const item: unknown = v[i];
      if (item === undefined) {
        throw fail(
          ctx,
          depth + 1,
          'UNSUPPORTED_TYPE',
          'undefined (or an array hole) cannot be represented in JSON',
        );
      }
      out += i === 0 ? ser(item, ctx, depth + 1) : ',' + ser(item, ctx, depth + 1);
    }
    return out + ']';
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    throw fail(ctx, depth, 'UNSUPPORTED_TYPE', `${describe(v)} is not a plain object`);
  }
  // Default sort compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
  const keys = Object.keys(v).sort();
  const n = keys.length;
  if (n === 0) return '{}';
  const rec = v as Record<string, unknown>;
  let out = '{';
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    path[depth] = k;
    const item = rec[k];
    if (item === undefined) {
      throw fail(ctx, depth + 1, 'UNSUPPORTED_TYPE', 'undefined cannot be represented in JSON');
    }
    if (i !== 0) out += ',';
    out += str(k, ctx, depth + 1) + ':' + ser(item, ctx, depth + 1);
  }
  return out + '}';
}

/** RFC 8785 canonical JSON text of `value`; throws JsonError for anything JSON cannot hold exactly. */
export function canonicalize(value: unknown): string {
  return ser(value, { path: [], ancestors: [] }, 0);
}

/** UTF-8 bytes of canonicalize(value): the exact bytes db8 hashes and signs. */
export function canonicalBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(canonicalize(value));
}
