import type { AnyProtocol } from './contract.ts';

/** A name → protocol lookup, as a runtime, `db8 verify` and `db8 replay` hold it. */
export type ProtocolRegistry = ReadonlyMap<string, AnyProtocol>;

/** Build a registry; two protocols with one name is a programming error, so it throws. */
export function createProtocolRegistry(protocols: readonly AnyProtocol[]): ProtocolRegistry {
  const registry = new Map<string, AnyProtocol>();
  for (const protocol of protocols) {
    if (registry.has(protocol.name)) throw new Error(`duplicate protocol name: ${protocol.name}`);
    registry.set(protocol.name, protocol);
  }
  return registry;
}

/** name → cast; two casts for one protocol is a programming error, so it throws. */
export function createCastRegistry<C extends { protocol: string }>(
  casts: readonly C[],
): ReadonlyMap<string, C> {
  const out = new Map<string, C>();
  for (const c of casts) {
    if (out.has(c.protocol)) throw new Error(`duplicate cast for protocol ${c.protocol}`);
    out.set(c.protocol, c);
  }
  return out;
}
