import type { AnyProtocol } from '@db8/core';
import { installedProtocols } from '../protocols/registry.ts';

// The installed protocols by name, for the generic pages and forms.

export function protocolNamed(name: string): AnyProtocol | undefined {
  return installedProtocols().find((p) => p.name === name);
}

/**
 * The seats people and agents can take: without those of the protocol's reserved roles (the server's
 * own, which it always holds), so the lobby counts seats as the protocol's own listings do.
 */
export function openableSeats<S extends { role: string }>(protocol: string, seats: readonly S[]): S[] {
  const reserved = new Set(protocolNamed(protocol)?.reservedRoles ?? []);
  return seats.filter((s) => !reserved.has(s.role));
}
