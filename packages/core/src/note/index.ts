// C2SP signed notes (Ed25519) and transparency-log checkpoints.
export {
  type Checkpoint,
  CheckpointSchema,
  formatCheckpoint,
  parseCheckpoint,
  roomOrigin,
  signCheckpoint,
  type VerifiedCheckpoint,
  verifyCheckpoint,
} from './checkpoint.ts';
export { NoteError, type NoteErrorCode } from './errors.ts';
export {
  ED25519_SIG_TYPE,
  type Ed25519NoteSigner,
  type Ed25519NoteVerifier,
  ed25519Signer,
  ed25519Verifier,
  formatSignerKey,
  formatVerifierKey,
  generateNoteKey,
  isValidKeyName,
  type NoteSigner,
  type NoteVerifier,
  noteKeyId,
  parseSignerKey,
  parseVerifierKey,
} from './keys.ts';
export { MAX_NOTE_SIGNATURES, type NoteSignature, type OpenedNote, openNote, signNote } from './note.ts';
