import type { AnyProtocol } from '@db8/core';
import { council } from '../council/src/index.ts';
import { debate } from '../debate/src/index.ts';
import { deliberation } from '../deliberation/src/index.ts';
import { sealedBid } from '../examples/src/index.ts';
import { poker } from '../poker/src/index.ts';
import { question } from '../question/src/index.ts';

// @db8/protocols — the built-in protocols and the registry the runtime looks them up in.
// Each protocol lives in its own folder and subpath (`@db8/protocols/examples`, `/poker`, …).

/** Every protocol a server offers out of the box. Adding one is one line here. */
export const builtinProtocols: AnyProtocol[] = [sealedBid, poker, council, debate, question, deliberation];

/** A name → protocol lookup, as the runtime holds it. */
export type ProtocolRegistry = ReadonlyMap<string, AnyProtocol>;

/** Build a registry; two protocols with one name is a programming error, so it throws. */
export function createProtocolRegistry(
  protocols: readonly AnyProtocol[] = builtinProtocols,
): ProtocolRegistry {
  const registry = new Map<string, AnyProtocol>();
  for (const protocol of protocols) {
    if (registry.has(protocol.name)) throw new Error(`duplicate protocol name: ${protocol.name}`);
    registry.set(protocol.name, protocol);
  }
  return registry;
}

/** The built-in protocol called `name`, or undefined. */
export function protocolByName(name: string): AnyProtocol | undefined {
  return builtinProtocols.find((p) => p.name === name);
}

export { builtinCasts, createCastRegistry } from './casts.ts';
export { council, debate, deliberation, poker, question, sealedBid };
