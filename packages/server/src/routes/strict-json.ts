import { JsonError, parseJson } from '@db8/core';
import { ApiError } from '../errors.ts';

/**
 * The one parser for client JSON at every edge (REST bodies, WebSocket messages): strict UTF-8
 * (an invalid byte is an error, never a silent U+FFFD), strict JSON (duplicate keys, unsafe
 * integers, lone surrogates and nesting beyond JSON_MAX_DEPTH are errors, see @db8/core
 * parseJson) and no NUL in any string or key (Postgres text cannot hold U+0000: it would be a 500
 * at the first write instead of a 400 here).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where the first string or key holding U+0000 is (`a.b.0`), or null. Depth is already bounded. */
export function nulPath(v: unknown, path: string[] = []): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? path.join('.') : null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = nulPath(v[i], [...path, String(i)]);
      if (p !== null) return p;
    }
    return null;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k.includes('\u0000')) return [...path, k.replaceAll('\u0000', '\\u0000')].join('.');
      const p = nulPath(x, [...path, k]);
      if (p !== null) return p;
    }
  }
  return null;
}

/** The 400 for a string holding NUL, in the shape of a schema failure (path, never the value). */
export function nulError(path: string): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', 'request does not match the schema', [
    { path, message: 'NUL characters (U+0000) are not allowed in strings', code: 'nul_character' },
  ]);
}

/** Bytes or text -> a JSON value, or a 400 ApiError (`INVALID_JSON` / `VALIDATION_FAILED`). */
export function parseClientJson(input: Buffer | string): unknown {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = utf8.decode(input);
    } catch {
      throw new ApiError(400, 'INVALID_JSON', 'not valid UTF-8', { reason: 'INVALID_UTF8' });
    }
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw new ApiError(400, 'INVALID_JSON', 'invalid JSON');
    throw new ApiError(400, 'INVALID_JSON', e.message, { reason: e.code, path: e.path });
  }
  // A NUL can only come from a `\u0000` escape (JSON forbids a raw one; the parser refuses it): text
  // without one needs no walk over the value.
  const at = text.includes('\\u0000') ? nulPath(value) : null;
  if (at !== null) throw nulError(at);
  return value;
}
