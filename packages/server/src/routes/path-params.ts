import { ApiError } from '../errors.ts';

/** C0 controls (NUL included) and DEL: never part of an id, a seq or a name in a path. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Every route's path parameters, checked once for all before any handler, credential lookup or
 * store query sees them (a NUL reaching Postgres is a 500): the same rule and 400 shape as a NUL in
 * a body, whether or not the route declares a params schema. Returns the error, or null.
 */
export function pathParamError(params: unknown): ApiError | null {
  if (!params || typeof params !== 'object') return null;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value === 'string' && hasControl(value)) {
      return new ApiError(400, 'VALIDATION_FAILED', 'request does not match the schema', [
        {
          path: name,
          message: 'control characters (U+0000–U+001F, U+007F) are not allowed in path parameters',
          code: 'control_character',
        },
      ]);
    }
  }
  return null;
}
