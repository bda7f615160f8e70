export type NoteErrorCode =
  | 'MALFORMED_NOTE' // not a signed note: bad UTF-8/control chars, no blank line, bad signature line
  | 'INVALID_SIGNATURE' // a signature from a known key failed to verify: the whole note is rejected
  | 'UNVERIFIED_NOTE' // well-formed, but no signature from any known key
  | 'BAD_KEY' // a verifier or signer key string (or its parts) is malformed or inconsistent
  | 'AMBIGUOUS_KEY' // two verifiers share a key name and key ID
  | 'MALFORMED_CHECKPOINT' // the note text is not a tlog checkpoint
  | 'WRONG_ORIGIN'; // the checkpoint is for another log

export class NoteError extends Error {
  readonly code: NoteErrorCode;
  constructor(code: NoteErrorCode, message: string) {
    super(message);
    this.name = 'NoteError';
    this.code = code;
  }
}
