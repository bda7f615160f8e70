import type { AnyProtocol } from '@db8/core';
import { createProtocolRegistry, type ProtocolRegistry } from '@db8/protocols';
import type { ProtocolModule } from '../kit/module.ts';
import { runtimeError } from '../runtime/errors.ts';
import type { RuntimeOptions } from '../runtime/types.ts';
import { councilModule } from './council/index.ts';
import { debateModule } from './debate/index.ts';
import { deliberationModule } from './deliberation/index.ts';
import { pokerModule } from './poker/index.ts';
import { questionModule } from './question/index.ts';
import { sealedBidModule } from './sealed-bid/index.ts';

export { createProtocolRegistry, type ProtocolRegistry };

/** Every protocol module a server runs out of the box: adding a protocol is one line here. */
export const builtinModules: readonly ProtocolModule[] = [
  sealedBidModule,
  pokerModule,
  councilModule,
  debateModule,
  questionModule,
  deliberationModule,
];

/** name → module; two modules for one protocol name is a programming error, so it throws. */
export function createModuleRegistry(
  modules: readonly ProtocolModule[] = builtinModules,
): ReadonlyMap<string, ProtocolModule> {
  const out = new Map<string, ProtocolModule>();
  for (const m of modules) {
    if (out.has(m.protocol.name)) throw new Error(`duplicate protocol module: ${m.protocol.name}`);
    out.set(m.protocol.name, m);
  }
  return out;
}

/** The registry a runtime folds with: the modules' protocols, plus any extra (tests, plugins). */
export function defaultProtocolRegistry(
  extra: readonly AnyProtocol[] = [],
  modules: readonly ProtocolModule[] = builtinModules,
): ProtocolRegistry {
  return createProtocolRegistry([...modules.map((m) => m.protocol), ...extra]);
}

/** The runtime's join hook: each module's `onJoin`, written in the join's own commit. */
export function joinEffectsOf(
  modules: readonly ProtocolModule[] = builtinModules,
): RuntimeOptions['joinEffects'] {
  const byName = createModuleRegistry(modules);
  return (protocol, input) => byName.get(protocol)?.onJoin?.(input) ?? [];
}

/** The runtime's `externalClock`: the protocols whose module ticks its rooms itself. */
export function externalClockOf(
  modules: readonly ProtocolModule[] = builtinModules,
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
