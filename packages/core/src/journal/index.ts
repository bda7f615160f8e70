// The journal bundle: a room's log as JSONL (entries, checkpoints, keys) and its offline verifier.
export * from './build.ts';
export * from './failures.ts';
export * from './proof.ts';
export * from './schema.ts';
export * from './verify.ts';
