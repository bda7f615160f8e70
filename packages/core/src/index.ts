// @db8/core — pure and isomorphic: no I/O, no clock, no ambient randomness.
// Node gets node:crypto backends, browsers get @noble ones (see package.json "imports").

export * from './crypto/index.ts';
export * from './journal/index.ts';
export * from './json/index.ts';
export * from './log/index.ts';
export * from './merkle/index.ts';
export * from './note/index.ts';
export * from './protocol/index.ts';
export * from './random/index.ts';
export * from './room/index.ts';
export * from './ssh/index.ts';
export * from './text/index.ts';
export * from './time/index.ts';
