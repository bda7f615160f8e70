export * from './cast.ts';
export * from './contract.ts';
