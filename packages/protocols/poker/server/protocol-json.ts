import { toJsonSchema } from '@db8/server/kit';
import { z } from 'zod';
import * as wire from '../rules/index.ts';

const REST = ['CreateTableBody', 'TableSummary', 'JoinTableBody', 'JoinTableResponse', 'TopUpBody'];
const CLIENT = ['PokerHello', 'PokerActionMessage', 'PokerPing'];
const SERVER = ['PokerWelcome', 'PokerGameState', 'PokerHandComplete', 'PokerAck', 'PokerError', 'PokerPong'];
const PAYLOADS = ['GameStatePayload', 'CompactState', 'HandCompletePayload', 'LegalWireAction'];

function pick(names: readonly string[]): Record<string, unknown> {
  const mod = wire as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const s = mod[`${name}Schema`];
    if (!(s instanceof z.ZodType)) throw new Error(`no schema ${name}Schema in @db8/protocols/poker`);
    out[name] = toJsonSchema(s);
  }
  return out;
}

/** JSON Schema of every poker message, from the zod schemas the server parses with. */
export function pokerProtocolJson(): Record<string, unknown> {
  return {
    protocol_version: wire.POKER_PROTOCOL_VERSION,
    min_supported_protocol_version: wire.POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
    rest: pick(REST),
    ws: { client: pick(CLIENT), server: pick(SERVER), payloads: pick(PAYLOADS) },
  };
}
