import type { AnyProtocol } from './contract.ts';

/** A name → protocol lookup, as a runtime, `db8 verify` and `db8 replay` hold it. */
export type ProtocolRegistry = ReadonlyMap<string, AnyProtocol>;

/** Build a registry; two protocols with one name is a programming error, so it throws. */
export function createProtocolRegistry(protocols: readonly AnyProtocol[]): ProtocolRegistry {
  return byKeyOnce(
    protocols,
    (p) => p.name,
    (name) => `duplicate protocol name: ${name}`,
  );
}

/** name → cast; two casts for one protocol is a programming error, so it throws. */
export function createCastRegistry<C extends { protocol: string }>(
  casts: readonly C[],
): ReadonlyMap<string, C> {
  return byKeyOnce(
    casts,
    (c) => c.protocol,
    (name) => `duplicate cast for protocol ${name}`,
  );
}

function byKeyOnce<T>(
  items: readonly T[],
  key: (item: T) => string,
  duplicate: (k: string) => string,
): ReadonlyMap<string, T> {
  const out = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (out.has(k)) throw new Error(duplicate(k));
    out.set(k, item);
  }
  return out;
}
