/**
 * Every refusal the runtime makes: a stable code clients can switch on, the HTTP status the routes
 * answer with, and optional details. A RuntimeError means nothing was written.
 */
export class RuntimeError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  constructor(code: string, status: number, message: string, details?: unknown) {
    super(message);
    this.name = 'RuntimeError';
    this.code = code;
    this.status = status;
    if (details !== undefined) this.details = details;
  }
}

/** Status for runtime-level codes; protocol rejection codes (NOT_YOUR_TURN, …) answer 409. */
export const RUNTIME_CODES = {
  ROOM_NOT_FOUND: 404,
  UNKNOWN_SEAT: 404,
  ENTRY_NOT_FOUND: 404,
  UNKNOWN_PROTOCOL: 400,
  BAD_CONFIG: 400,
  BAD_ACTION: 400,
  SEAT_NOT_HELD: 403,
  ACTION_RESERVED: 403,
  STALE_SEQ: 409,
  STALE_TURN_TOKEN: 409,
  ROOM_CLOSED: 409,
  SEAT_TAKEN: 409,
  SEAT_ALREADY_HELD: 409,
  ROOM_FULL: 409,
  ROOM_EXISTS: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PROTOCOL_VERSION_MISMATCH: 409,
  CONFLICT_RETRY_EXHAUSTED: 503,
  PROTOCOL_ERROR: 500,
  REFOLD_FAILED: 500,
  BAD_REVEAL: 500,
} as const;
export type RuntimeCode = keyof typeof RUNTIME_CODES;

export function runtimeError(code: RuntimeCode, message: string, details?: unknown): RuntimeError {
  return new RuntimeError(code, RUNTIME_CODES[code], message, details);
}

/** A protocol's typed rejection (Rejection) as a RuntimeError. */
export function rejectionError(rejection: {
  code: string;
  message: string;
  details?: unknown;
}): RuntimeError {
  return new RuntimeError(rejection.code, 409, rejection.message, rejection.details);
}
