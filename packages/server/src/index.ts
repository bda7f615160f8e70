// @db8/server — the store, the room runtime, the server key and the protocol registry.
export * from './keys/index.ts';
export * from './protocols.ts';
export * from './runtime/index.ts';
export * from './store/index.ts';
