export * from './cert.ts';
export * from './errors.ts';
export * from './keys.ts';
export * from './sshsig.ts';
export * from './wire.ts';
