import { z } from 'zod';
import { canonicalize } from './canonical.ts';
import { JsonError } from './errors.ts';

/**
 * Any JSON value db8 can canonicalise. z.json() checks the shape (and rejects NaN/±Infinity); the
 * refinement adds what canonicalize also refuses (lone surrogates, unsafe integers, cycles, depth),
 * reported at the offending path.
 */
export const JsonValueSchema = z.json().superRefine((value, ctx) => {
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
});
export type JsonValue = z.infer<typeof JsonValueSchema>;
export type JsonObject = { [key: string]: JsonValue };
