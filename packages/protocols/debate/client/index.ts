import type { Db8Client } from '@db8/sdk';
import { type OperateBody, OperateResponseSchema } from '../rules/operate-wire.ts';
import {
  IdentitiesResponseSchema,
  RatingHistoryResponseSchema,
  RatingsResponseSchema,
} from '../rules/ratings-wire.ts';
import { CitationCheckSchema, ResearchFetchResponseSchema, ResearchListSchema } from '../rules/research.ts';

// Debate helpers over a Db8Client: the ratings API, the names behind the identities it lists, and
// the research tool.

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
  return client.request(RatingsResponseSchema, 'GET', `/v1/ratings${s ? `?${s}` : ''}`);
}

/** One identity's ratings and history (`scripted`: also count agents registered as scripted). */
export function debateRating(client: Db8Client, identity: string, q: { scripted?: boolean } = {}) {
  const qs = q.scripted ? '?scripted=include' : '';
  return client.request(
    RatingHistoryResponseSchema,
    'GET',
    `/v1/ratings/${encodeURIComponent(identity)}${qs}`,
  );
}

/** Names (and the scripted flag) of agents and people by principal id; unknown ids are left out. */
export function identityNames(client: Db8Client, ids: readonly string[]) {
  const qs = new URLSearchParams({ ids: ids.join(',') });
  return client.request(IdentitiesResponseSchema, 'GET', `/v1/identities?${qs}`);
}

const researchPath = (roomId: string) => `/v1/debate/rooms/${encodeURIComponent(roomId)}/research`;

/** The research tool: fetch a page into the room's cache (docs/debate.md, "Research"). */
export function researchFetch(client: Db8Client, roomId: string, url: string) {
  return client.request(ResearchFetchResponseSchema, 'POST', researchPath(roomId), { url });
}

/** The room's research cache (no text). */
export function researchList(client: Db8Client, roomId: string) {
  return client.request(ResearchListSchema, 'GET', researchPath(roomId));
}

/** Is `quote` in the room's cached snapshot of `url`? */
export function researchCheck(client: Db8Client, roomId: string, body: { url: string; quote: string }) {
  return client.request(CitationCheckSchema, 'POST', `${researchPath(roomId)}/check`, body);
}

/** Operate a debate (admin): abort, pause, resume, extend the current window, replace a no-show. */
export function operateDebate(client: Db8Client, roomId: string, body: OperateBody) {
  return client.request(
    OperateResponseSchema,
    'POST',
    `/v1/debate/rooms/${encodeURIComponent(roomId)}/operate`,
    body,
  );
}
