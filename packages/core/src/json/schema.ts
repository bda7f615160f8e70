import { z } from 'zod';
import { canonicalize } from './canonical.ts';
import { JsonError } from './errors.ts';

/** A JSON value (RFC 8259). Recursive, so written out once here and carried by JsonValueSchema. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * Any JSON value db8 can canonicalise: exactly what canonicalize accepts (plain objects and arrays,
 * finite numbers, safe integers, well-formed strings, no cycles), each failure reported at its path.
 * It validates without copying: z.json() would rebuild objects and silently drop a "__proto__"
 * member, so a payload's hash would change on the way through. JSON Schema export sees `{}` (any).
 */
export const JsonValueSchema = z.unknown().superRefine((value, ctx) => {
  try {
    canonicalize(value);
  } catch (err) {
    if (!(err instanceof JsonError)) throw err;
    ctx.addIssue({
      code: 'custom',
      message: err.message,
      path: [...err.segments],
      params: { json: err.code },
    });
  }
}) as unknown as z.ZodType<JsonValue>;
