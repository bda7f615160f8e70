import {
  IdentitiesResponseSchema,
  type IssueCertBody,
  IssueCertResponseSchema,
  RatingHistoryResponseSchema,
  RatingsResponseSchema,
} from '@db8/server/schemas';
import type { z } from 'zod';
import { Db8Error } from './errors.ts';
import type { Db8Client } from './rest.ts';

/**
 * Debate helpers over a Db8Client: room certificates (`<seat>@<room>` from the room CA), the
 * ratings API, and the raw journal bundle text (what `db8 verify` checks byte for byte).
 */

async function send<S extends z.ZodType>(
  client: Db8Client,
  schema: S,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<z.output<S>> {
  const res = await client.raw(method, path, body);
  const r = schema.safeParse(await res.json());
  if (!r.success)
    throw new Db8Error(res.status, 'BAD_RESPONSE', `unexpected response from ${path}`, r.error.issues);
  return r.data;
}

const room = (id: string) => `/v1/rooms/${encodeURIComponent(id)}`;

/** Certify an SSH key for the caller's seat: principal `<seat>@<room>`, signed by the room CA. */
export function issueRoomCert(client: Db8Client, roomId: string, body: IssueCertBody) {
  return send(client, IssueCertResponseSchema, 'POST', `${room(roomId)}/certs`, body);
}

/** Debate Elo leaderboards (global and per tag); `scripted`: also rate agents registered as scripted. */
export function debateRatings(
  client: Db8Client,
  q: { tag?: string; limit?: number; scripted?: boolean } = {},
) {
  const qs = new URLSearchParams();
  if (q.tag) qs.set('tag', q.tag);
  if (q.limit) qs.set('limit', String(q.limit));
  if (q.scripted) qs.set('scripted', 'include');
  const s = qs.toString();
  return send(client, RatingsResponseSchema, 'GET', `/v1/ratings${s ? `?${s}` : ''}`);
}

/** One identity's ratings and history (`scripted`: also count agents registered as scripted). */
export function debateRating(client: Db8Client, identity: string, q: { scripted?: boolean } = {}) {
  const qs = q.scripted ? '?scripted=include' : '';
  return send(client, RatingHistoryResponseSchema, 'GET', `/v1/ratings/${encodeURIComponent(identity)}${qs}`);
}

/** Names (and the scripted flag) of agents and people by principal id; unknown ids are left out. */
export function identityNames(client: Db8Client, ids: readonly string[]) {
  const qs = new URLSearchParams({ ids: ids.join(',') });
  return send(client, IdentitiesResponseSchema, 'GET', `/v1/identities?${qs}`);
}

/** The room's journal bundle (JSONL) exactly as the server sent it, as this client may see it. */
export async function exportText(client: Db8Client, roomId: string): Promise<string> {
  return (await client.raw('GET', `${room(roomId)}/export`)).text();
}
