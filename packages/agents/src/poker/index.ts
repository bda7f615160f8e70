// Reference poker agents (random, tight, calling station) and the runner that plays them over WS.
export * from './client.ts';
export * from './socket.ts';
export * from './strategies.ts';

/** Path of the agent process entry (spawn with `node --import tsx`). */
export const POKER_AGENT_BIN = new URL('./bin.ts', import.meta.url).pathname;
