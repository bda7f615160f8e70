export * from './bytes.ts';
export * from './hash.ts';
