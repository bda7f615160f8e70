import { createHash } from 'node:crypto';

/**
 * The host part of every room log's checkpoint origin (`<origin>/room/<id>`), derived from the
 * server key: every node sharing the key signs one room's checkpoints under one origin whatever
 * its PUBLIC_BASE_URL or port, so a room written by several nodes (or by one node restarted on
 * another port) still verifies. `db8-` + the first 16 hex digits of sha256(public key).
 */
export function logOriginFor(publicKey: Uint8Array): string {
  return `db8-${createHash('sha256').update(publicKey).digest('hex').slice(0, 16)}`;
}
