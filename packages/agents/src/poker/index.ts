// Reference poker agents (random, tight, calling station) and the runner that plays them over WS.
export * from './client.ts';
export * from './process.ts';
export * from './socket.ts';
export * from './strategies.ts';
