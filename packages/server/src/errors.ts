import { z } from 'zod';
import type { ErrorBody } from './schemas/common.ts';

/** An error meant for the client: a status, a stable code, a message and optional details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new ApiError(400, 'BAD_REQUEST', message, details);
export const notFound = (message = 'not found', code = 'NOT_FOUND') => new ApiError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT', details?: unknown) =>
  new ApiError(409, code, message, details);

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return details === undefined ? { error: { code, message } } : { error: { code, message, details } };
}

/** Zod issues without echoing input values back (they may be large or secret). */
export function zodDetails(err: z.ZodError): Array<{ path: string; message: string; code: string }> {
  return err.issues.slice(0, 20).map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
    code: i.code,
  }));
}

// Fastify's own error codes that are the client's fault, mapped to ours.
const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON'],
  FST_ERR_CTP_EMPTY_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE'],
  FST_ERR_VALIDATION: [400, 'VALIDATION_FAILED'],
  FST_ERR_BAD_URL: [400, 'BAD_REQUEST'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'BAD_REQUEST'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'BAD_REQUEST'],
};

/**
 * Any thrown value -> status + body. Known client mistakes become 4xx with their code; the runtime's
 * errors (duck-typed: `code` + numeric `status`) pass through; everything else is a 500 whose
 * message does not leak internals.
 */
export function toHttpError(err: unknown): { status: number; body: ErrorBody; internal: boolean } {
  if (err instanceof ApiError) {
    return { status: err.status, body: errorBody(err.code, err.message, err.details), internal: false };
  }
  if (err instanceof z.ZodError) {
    return {
      status: 400,
      body: errorBody('VALIDATION_FAILED', 'request does not match the schema', zodDetails(err)),
      internal: false,
    };
  }
  if (err && typeof err === 'object') {
    const e = err as {
      code?: unknown;
      status?: unknown;
      statusCode?: unknown;
      message?: unknown;
      details?: unknown;
      validation?: unknown;
      cause?: unknown;
    };
    const message = typeof e.message === 'string' ? e.message : 'error';
    if (e.validation !== undefined) {
      const details = e.cause instanceof z.ZodError ? zodDetails(e.cause) : undefined;
      return { status: 400, body: errorBody('VALIDATION_FAILED', message, details), internal: false };
    }
    if (typeof e.code === 'string' && FASTIFY_CODES[e.code]) {
      const [status, code] = FASTIFY_CODES[e.code]!;
      return { status, body: errorBody(code, message), internal: false };
    }
    // RuntimeError and similar: a code and an HTTP status chosen by the thrower.
    const status =
      typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 0;
    if ((status >= 400 && status < 500) || status === 503) {
      const code = typeof e.code === 'string' && !e.code.startsWith('FST_') ? e.code : codeForStatus(status);
      return { status, body: errorBody(code, message, e.details), internal: false };
    }
    if (err instanceof SyntaxError) {
      return { status: 400, body: errorBody('INVALID_JSON', message), internal: false };
    }
  }
  return { status: 500, body: errorBody('INTERNAL', 'internal error'), internal: true };
}

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'BAD_REQUEST';
  }
}
