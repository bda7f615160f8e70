import { createHash } from 'node:crypto';
import type { SqlDriver } from '@db8/server/kit';
import type { ResearchEntry } from '../../rules/index.ts';
import type { AddressPolicy } from './address.ts';
import { type FetchLimits, safeFetch } from './fetch.ts';
import { snapshotText } from './text.ts';

/**
 * The room's research cache (seed 000's `research_cache`, shared by the room; docs/debate.md,
 * "Research"): one row per (room, url), holding the sha256 of the body as fetched and its text
 * snapshot. A URL the room already has is answered from the cache and never fetched again.
 */

interface Row {
  url: string;
  final_url: string;
  sha256: string;
  status: number | string;
  content_type: string;
  title: string | null;
  bytes: number | string;
  text?: string;
  fetched_at: number | string;
  fetched_by: string;
}

const COLUMNS = 'url, final_url, sha256, status, content_type, title, bytes, fetched_at, fetched_by';

function entry(r: Row): ResearchEntry {
  return {
    url: r.url,
    final_url: r.final_url,
    sha256: r.sha256,
    status: Number(r.status),
    content_type: r.content_type,
    title: r.title,
    bytes: Number(r.bytes),
    fetched_at: Number(r.fetched_at),
    fetched_by: r.fetched_by,
    ...(r.text !== undefined ? { text: r.text } : {}),
  };
}

export class ResearchCache {
  constructor(
    private readonly db: SqlDriver,
    private readonly policy: AddressPolicy,
    private readonly limits: FetchLimits,
    private readonly clock: () => number,
  ) {}

  async get(roomId: string, url: string, withText = true): Promise<ResearchEntry | null> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS}${withText ? ', text' : ''} FROM debate_research_cache WHERE room_id = $1 AND url = $2`,
      [roomId, url],
    );
    return rows[0] ? entry(rows[0]) : null;
  }

  /** The room's entries, oldest first, without their text. */
  async list(roomId: string): Promise<ResearchEntry[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM debate_research_cache WHERE room_id = $1 ORDER BY fetched_at, url LIMIT 1000`,
      [roomId],
    );
    return rows.map(entry);
  }

  /** The room's entries with their text (for model seats' prompts). */
  async entries(roomId: string, limit = 20): Promise<ResearchEntry[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS}, text FROM debate_research_cache WHERE room_id = $1 ORDER BY fetched_at, url LIMIT $2`,
      [roomId, limit],
    );
    return rows.map(entry);
  }

  /**
   * Fetches `url` for `seat` unless the room has it: `cached` says which. `beforeFetch` runs only
   * when a fetch is needed (the rate limit: cache hits cost nothing). Throws ResearchError.
   */
  async fetch(
    roomId: string,
    url: string,
    by: { seat: string; principal: string | null },
    beforeFetch: () => void,
  ): Promise<{ entry: ResearchEntry; cached: boolean }> {
    const hit = await this.get(roomId, url);
    if (hit) return { entry: hit, cached: true };
    beforeFetch();
    const got = await safeFetch(url, this.policy, this.limits);
    const snap = snapshotText(got.body, got.contentType, got.mediaType);
    const sha256 = createHash('sha256').update(got.body).digest('hex');
    // Two seats fetching one URL at once: the first row stays, both answer it.
    await this.db.query(
      `INSERT INTO debate_research_cache
         (room_id, url, final_url, sha256, status, content_type, title, bytes, text, fetched_at, fetched_by, principal)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (room_id, url) DO NOTHING`,
      [
        roomId,
        url,
        got.finalUrl,
        sha256,
        got.status,
        got.mediaType,
        snap.title,
        got.body.length,
        snap.text,
        this.clock(),
        by.seat,
        by.principal,
      ],
    );
    const stored = await this.get(roomId, url);
    if (!stored) throw new Error(`research cache row for ${url} vanished`);
    return { entry: stored, cached: false };
  }
}
