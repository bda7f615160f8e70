export * from './bytes.ts';
// Ed25519 is a namespace (ed25519.sign / ed25519.verify / …) so its short names cannot collide.
export * as ed25519 from './ed25519.ts';
export { Ed25519KeyError, type Ed25519KeyPair } from './ed25519.ts';
export * from './ed25519-webcrypto.ts';
export * from './hash.ts';
export { BoundedCache } from './lru.ts';
