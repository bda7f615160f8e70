export * from './cast.ts';
export * from './contract.ts';
export * from './registry.ts';
