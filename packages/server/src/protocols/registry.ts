import type { AnyProtocol } from '@db8/core';
import { builtinProtocols, createProtocolRegistry, type ProtocolRegistry } from '@db8/protocols';
import { runtimeError } from '../runtime/errors.ts';

export { createProtocolRegistry, type ProtocolRegistry };

/** The registry a server runs with: the built-in protocols, plus any extra (tests, plugins). */
export function defaultProtocolRegistry(extra: readonly AnyProtocol[] = []): ProtocolRegistry {
  return createProtocolRegistry([...builtinProtocols, ...extra]);
}

/** The protocol called `name`, or RuntimeError UNKNOWN_PROTOCOL (400) listing the known ones. */
export function protocolOrThrow(registry: ProtocolRegistry, name: string): AnyProtocol {
  const p = registry.get(name);
  if (!p) throw runtimeError('UNKNOWN_PROTOCOL', `no protocol ${name}`, { known: [...registry.keys()] });
  return p;
}
