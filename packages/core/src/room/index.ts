// Rooms in core: the one fold every reader uses, the LocalRoom every local writer uses, offline refold.
export * from './build.ts';
export * from './fold.ts';
export * from './freeze.ts';
export * from './frontier.ts';
export * from './journal.ts';
export * from './local.ts';
export * from './presence.ts';
export * from './refold.ts';
