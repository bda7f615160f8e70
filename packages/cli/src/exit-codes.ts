// Process exit codes shared by every db8 command, so scripts can tell failures apart.
export const EXIT_OK = 0;
/** Bad command line: unknown option, missing argument, invalid option value. */
export const EXIT_USAGE = 1;
/** Input that cannot be parsed or is unsupported (malformed signature, key, bundle, JSON). */
export const EXIT_INVALID_INPUT = 2;
/** Input parsed but did not verify (bad signature, untrusted key, expired certificate, broken proof). */
export const EXIT_VERIFICATION_FAILED = 3;
/** A file or stream could not be read or written. */
export const EXIT_IO_ERROR = 4;
/** Not logged in, session expired, or the credential may not do this (server 401/403). */
export const EXIT_AUTH = 5;
/** The server refused the request: a rejected action, a taken seat, an unknown room (404/409/426/429). */
export const EXIT_REJECTED = 6;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_USAGE
  | typeof EXIT_INVALID_INPUT
  | typeof EXIT_VERIFICATION_FAILED
  | typeof EXIT_IO_ERROR
  | typeof EXIT_AUTH
  | typeof EXIT_REJECTED;
