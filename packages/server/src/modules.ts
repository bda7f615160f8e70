import { type AnyProtocol, createProtocolRegistry, type ProtocolRegistry } from '@db8/core';
import type { ProtocolModule } from './kit/module.ts';
import { runtimeError } from './runtime/errors.ts';
import type { RuntimeOptions } from './runtime/types.ts';

// What a server derives from the protocol modules it is composed with (packages/app lists the
// built-in ones): the registry the runtime folds with, its join hook and its external clocks.

/** name → module; two modules for one protocol name is a programming error, so it throws. */
export function createModuleRegistry(
  modules: readonly ProtocolModule[],
): ReadonlyMap<string, ProtocolModule> {
  const out = new Map<string, ProtocolModule>();
  for (const m of modules) {
    if (out.has(m.protocol.name)) throw new Error(`duplicate protocol module: ${m.protocol.name}`);
    out.set(m.protocol.name, m);
  }
  return out;
}

/** The registry a runtime folds with: the modules' protocols, plus any extra (tests, plugins). */
export function protocolRegistryOf(
  modules: readonly ProtocolModule[],
  extra: readonly AnyProtocol[] = [],
): ProtocolRegistry {
  return createProtocolRegistry([...modules.map((m) => m.protocol), ...extra]);
}

/** The runtime's join hook: each module's `onJoin`, written in the join's own commit. */
export function joinEffectsOf(modules: readonly ProtocolModule[]): RuntimeOptions['joinEffects'] {
  const byName = createModuleRegistry(modules);
  return (protocol, input) => byName.get(protocol)?.onJoin?.(input) ?? [];
}

/** The runtime's `externalClock`: the protocols whose module ticks its rooms itself. */
export function externalClockOf(
  modules: readonly ProtocolModule[],
): NonNullable<RuntimeOptions['externalClock']> {
  const names = new Set(modules.filter((m) => m.externalClock).map((m) => m.protocol.name));
  return (protocol) => names.has(protocol);
}

/** The protocol called `name`, or RuntimeError UNKNOWN_PROTOCOL (400) listing the known ones. */
export function protocolOrThrow(registry: ProtocolRegistry, name: string): AnyProtocol {
  const p = registry.get(name);
  if (!p) throw runtimeError('UNKNOWN_PROTOCOL', `no protocol ${name}`, { known: [...registry.keys()] });
  return p;
}
