// The `poker` table protocol: the engine (../) dealt hand after hand at a table of seats.
export * from './actions.ts';
export { pokerCast } from './cast.ts';
export * from './config.ts';
export * from './export.ts';
export { chipsBought, eligibleSeats, seatToAct, tableChips, turnDeadline } from './hand.ts';
export * from './notes.ts';
export { poker, type TableResult } from './protocol.ts';
export * from './state.ts';
export { turnTokenOf } from './transitions.ts';
export * from './verify.ts';
export * from './view.ts';
export * from './wire.ts';
