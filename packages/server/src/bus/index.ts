export { LocalBus } from './local.ts';
export { NatsBus, roomSubject, roomToken } from './nats.ts';
export type { Bus, BusHandler } from './types.ts';
