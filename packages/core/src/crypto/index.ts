export * from './bytes.ts';
export * from './hash.ts';
// Ed25519 is a namespace (ed25519.sign / ed25519.verify / …) so its short names cannot collide.
export * as ed25519 from './ed25519.ts';
export { type Ed25519KeyPair, Ed25519KeyError } from './ed25519.ts';
export * from './ed25519-webcrypto.ts';
