export * from './actions.ts';
export { sealedBidCast } from './cast.ts';
export * from './config.ts';
export { sealedBid } from './protocol.ts';
export * from './rules.ts';
export * from './state.ts';
export * from './view.ts';
