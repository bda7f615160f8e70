// The arena: tournaments as rooms (pure rules: schedule, results, standings and ratings).
export * from './actions.ts';
export * from './bradley-terry.ts';
export { arenaCast } from './cast.ts';
export * from './charts.ts';
export * from './config.ts';
export * from './csv.ts';
export * from './poker-stats.ts';
export { arena } from './protocol.ts';
export * from './schedule.ts';
export * from './standings.ts';
export * from './state.ts';
export * from './strategies.ts';
export * from './tables.ts';
export * from './view.ts';
