export * from './entry.ts';
export * from './visibility.ts';
