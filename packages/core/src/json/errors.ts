import { z } from 'zod';

/** Why a value or a text is not (db8's strict subset of) JSON. */
export const JsonErrorCodeSchema = z.enum([
  'SYNTAX', // not JSON: unexpected character, bad escape, bad number token, control char in a string
  'UNEXPECTED_END', // the text ended inside a value
  'TRAILING_DATA', // something other than whitespace after the top-level value
  'DUPLICATE_KEY', // an object names the same key twice (JSON.parse would silently keep the last)
  'UNSAFE_INTEGER', // an integer outside ±(2^53−1) that would print without an exponent (precision lost)
  'NON_FINITE_NUMBER', // NaN, ±Infinity, or a number token that overflows a double
  'LONE_SURROGATE', // a string or key that is not well-formed UTF-16 (so has no UTF-8 form)
  'UNSUPPORTED_TYPE', // undefined, function, symbol, bigint, Date, Map, class instance, array hole …
  'CYCLE', // an object or array that contains itself
  'TOO_DEEP', // nesting beyond JSON_MAX_DEPTH (guards the stack)
]);
export type JsonErrorCode = z.infer<typeof JsonErrorCodeSchema>;

export type JsonPathSegment = string | number;

/** Nesting limit for parseJson and canonicalize: deep enough for any real document, shallow enough for the stack. */
export const JSON_MAX_DEPTH = 512;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$`, `$.a[3].b`, `$["key with spaces"]` — a JSONPath-like pointer to the offending value. */
export function formatJsonPath(segments: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENT.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/**
 * The one error type of the json module. `path` says which value, `offset` (parse only) says which
 * UTF-16 code unit of the input text; the message repeats both, with line and column, for humans.
 */
export class JsonError extends Error {
  override readonly name = 'JsonError';
  readonly code: JsonErrorCode;
  readonly path: string;
  readonly segments: readonly JsonPathSegment[];
  readonly offset: number | undefined;

  constructor(
    code: JsonErrorCode,
    detail: string,
    segments: readonly JsonPathSegment[],
    offset?: number,
    text?: string,
  ) {
    const path = formatJsonPath(segments);
    let where = ` at ${path}`;
    if (offset !== undefined) {
      where += ` (offset ${offset}`;
      if (text !== undefined) {
        const { line, column } = lineColumn(text, offset);
        where += `, line ${line} column ${column}`;
      }
      where += ')';
    }
    super(detail + where);
    this.code = code;
    this.path = path;
    this.segments = segments;
    this.offset = offset;
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
