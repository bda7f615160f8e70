import { z } from 'zod';

/**
 * The research tool's wire contract and the citation check (docs/debate.md, "Research"). Pure:
 * the fetch itself and the cache live in server/research/.
 */

export const ResearchRequestSchema = z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) }).strict();

/** One cached page of a room: `sha256` is over the body as fetched, `text` its text snapshot. */
export const ResearchEntrySchema = z.object({
  url: z.string(),
  final_url: z.string(),
  sha256: z.string(),
  status: z.number().int(),
  content_type: z.string(),
  title: z.string().nullable(),
  bytes: z.number().int(),
  fetched_at: z.number().int(),
  /** The seat whose request filled the entry (the room's own anonymous seat name). */
  fetched_by: z.string(),
  /** The text snapshot; the list leaves it out unless asked for one URL. */
  text: z.string().optional(),
});
export type ResearchEntry = z.infer<typeof ResearchEntrySchema>;

export const ResearchFetchResponseSchema = ResearchEntrySchema.extend({
  /** True when the room's cache already had the URL: nothing was fetched. */
  cached: z.boolean(),
});

export const ResearchListQuerySchema = z.object({ url: z.string().max(2000).optional() }).strict();
export const ResearchListSchema = z.object({ room_id: z.string(), entries: z.array(ResearchEntrySchema) });

export const CitationCheckRequestSchema = z
  .object({ url: z.string().min(1).max(2000), quote: z.string().min(1).max(1000) })
  .strict();

export const CitationCheckSchema = z.object({
  url: z.string(),
  /** `found`/`not_found` against the snapshot; `not_cached` when the room never fetched the URL. */
  result: z.enum(['found', 'not_found', 'not_cached']),
  sha256: z.string().nullable(),
  fetched_at: z.number().int().nullable(),
});
export type CitationCheck = z.infer<typeof CitationCheckSchema>;

/** Whitespace runs collapsed to one space, trimmed, NFKC (so a quote's line breaks do not matter). */
export function normaliseWhitespace(s: string): string {
  return s.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** Whether `quote` occurs in `snapshot`, both with normalised whitespace. An empty quote never does. */
export function quoteInSnapshot(snapshot: string, quote: string): boolean {
  const q = normaliseWhitespace(quote);
  return q.length > 0 && normaliseWhitespace(snapshot).includes(q);
}
