import { fromHex } from '@db8/core';
import type { JoinEffect, JoinInput } from '@db8/server/kit';
import { normalizeKey } from '../rules/index.ts';

/**
 * Debate rooms on the generic room routes (the module's prepareConfig and onJoin):
 * - a new debate room trusts the server's room CA (`trust.ca_keys`), so the certificates
 *   POST /v1/rooms/:id/certs issues (`<seat>@<room_id>`) can sign submissions; the runtime fills
 *   `room_id`, which makes a certificate for another room fail (cross-room refusal);
 * - a principal taking a debater seat is bound to it by the moderator seat's sealed
 *   `bind_identity`, written in the join's own commit, so stats_and_reveal can unmask the seat.
 */

/** `config` with `caLine` among its trusted CAs (once). Anything not an object is left to the schema. */
export function withRoomCa(config: unknown, caLine: string): unknown {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return config;
  const c = config as Record<string, unknown>;
  const trust = c.trust ?? {};
  if (trust === null || typeof trust !== 'object' || Array.isArray(trust)) return config;
  const t = trust as Record<string, unknown>;
  const cas = t.ca_keys ?? [];
  if (!Array.isArray(cas)) return config;
  const ours = normalizeKey(caLine);
  if (cas.some((k) => typeof k === 'string' && normalizeKey(k) === ours)) return config;
  return { ...c, trust: { ...t, ca_keys: [...cas, caLine] } };
}

/**
 * The CAs a debate room's `trust.ca_keys` names (SSH lines or 64-hex raw keys), as raw keys: the
 * certificates they issue for `<seat>@<room>` sign submissions in the room and log in to it.
 */
export function roomCaKeysOf(config: unknown): Uint8Array[] {
  const cas = (config as { trust?: { ca_keys?: unknown } } | null)?.trust?.ca_keys;
  if (!Array.isArray(cas)) return [];
  const keys = cas.flatMap((k) => {
    const hex = typeof k === 'string' ? normalizeKey(k) : null;
    return hex ? [hex] : [];
  });
  return [...new Set(keys)].map((hex) => fromHex(hex));
}

/**
 * The identity binding a debater's join writes. Idempotent per (seat, principal) by its nonce; a
 * binding the protocol refuses (after the results) is skipped by the runtime and the seat stays
 * anonymous in the results.
 */
export function identityBinding(input: JoinInput): JoinEffect[] {
  if (input.seat.role !== 'debater') return [];
  const { id: seat } = input.seat;
  return [
    {
      seat: 'moderator',
      action: { type: 'bind_identity', seat, identity: input.principal },
      clientNonce: `bind:${seat}:${input.principal}`,
    },
  ];
}
