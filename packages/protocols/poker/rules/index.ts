// @db8/protocols/poker — a pure, deterministic no-limit hold'em engine (docs/poker.md).
export * from './cards.ts';
export { checkConfig } from './config.ts';
export * from './deck.ts';
export * from './engine.ts';
export * from './evaluator.ts';
export { chipTotal, showdownOrder } from './flow.ts';
export { type LegalActions, legalActions, viewFor } from './legal.ts';
export * from './phh.ts';
export { awardPots, buildPots, splitPot } from './pots.ts';
export * from './protocol/index.ts';
export * from './state.ts';
export { parseToml, TomlError, type TomlTable, type TomlValue } from './toml.ts';
