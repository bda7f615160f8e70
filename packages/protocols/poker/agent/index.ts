// Reference poker agents (random, tight, calling station) and the runner that plays them over the
// SDK's poker socket.
export * from './client.ts';
export * from './process.ts';
export * from './strategies.ts';
