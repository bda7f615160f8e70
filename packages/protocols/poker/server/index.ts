// Seed 002's poker tables on a db8 server: the module (module.ts) and what its parts export.

export { allEntries, loadTableExport, type TableExport, toJsonl, toPhhs } from './export.ts';
export { type PokerPlugin, pokerModule, registerPoker } from './module.ts';
export { HOUSE_PRINCIPAL, type PokerRuntime, PokerTables } from './service.ts';
export { pokerSkillDoc } from './skill.ts';
export { freePort, type LocalPokerServer, startLocalPokerServer } from './standalone.ts';
export { pokerWire } from './wire.ts';
