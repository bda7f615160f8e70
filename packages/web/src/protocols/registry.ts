import type { AnyProtocol } from '@db8/core';
import type { Entry } from '../lib/types.ts';
import type { WebModule } from './module.tsx';

// The protocols this web app was composed with: the composition root (packages/app/web/main.tsx)
// installs them once, before the first render; the platform pages read them here and never name a
// protocol. Module-level rather than a React context because plain functions (forms, lookups) read
// it too, and it never changes after boot.

let installed: { modules: readonly WebModule[]; protocols: readonly AnyProtocol[] } = {
  modules: [],
  protocols: [],
};

/** Set the web modules and protocol rules the app serves; call once, before rendering. */
export function installProtocols(modules: readonly WebModule[], protocols: readonly AnyProtocol[]): void {
  installed = { modules, protocols };
}

/** Every installed protocol's web module, in the order the composition root lists them. */
export function webModules(): readonly WebModule[] {
  return installed.modules;
}

export function moduleFor(protocol: string | undefined): WebModule | undefined {
  return installed.modules.find((m) => m.protocol === protocol);
}

/** Every installed protocol's pure rules: what generated create forms read their config schema from. */
export function installedProtocols(): readonly AnyProtocol[] {
  return installed.protocols;
}

/** An entry in its protocol's words, or null (no module, no words for it, or the module threw). */
export function entryWords(protocol: string | undefined, entry: Entry): string | null {
  const describe = moduleFor(protocol)?.describeEntry;
  if (!describe) return null;
  try {
    return describe(entry);
  } catch {
    // A payload the module did not expect (an older version's entry) still lists, as JSON.
    return null;
  }
}
