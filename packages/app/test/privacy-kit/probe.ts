import type { Viewer } from '@db8/core';
import type { Harness } from '@db8/server/test/app-harness.ts';
import type { KitViewer } from './viewers.ts';

/** What one read path served one viewer: the bytes, and the parts the kit compares structurally. */
export interface Delivery {
  /** The path as the report names it, e.g. `GET /v1/rooms/:id/export?as=public`. */
  path: string;
  /** HTTP status (101 for a socket that opened). */
  status: number;
  /** Everything received, searched for secrets (JSON inside JSON decoded beside it). */
  text: string;
  /** Log entries served, each to equal `redactEntry(stored, as)`. */
  entries?: { as: Viewer; list: readonly unknown[] };
  /** Protocol views served, each to equal `protocol.view(state, viewer)`. */
  views?: readonly unknown[];
  /** A journal bundle served: it must verify offline and refold to the room's state. */
  bundle?: string;
  /** Made from the viewer's views (typed events): every hash in `text` must be in its view. */
  fromView?: boolean;
  /** What the request itself named (an identity looked up): echoing it back tells nothing. */
  echo?: readonly string[];
}

/** Where a probe reads and as whom. */
export interface ProbeTarget {
  h: Harness;
  /** `http://127.0.0.1:<port>` of the listening app (SSE, WebSocket, MCP). */
  base: string;
  roomId: string;
  protocol: string;
  /** Seat ids of the room (for `?as=seat:<id>` and such). */
  seats: readonly string[];
  /** The principals holding the seats (ratings and identities are keyed by them). */
  principals: readonly string[];
  /** Seq of the room's last entry. */
  head: number;
  /** The question id behind a `question` room (its module's routes are keyed by it). */
  questionId: string;
  viewer: KitViewer;
  /** The admin's token, for paths that list ids first (deliberation lessons). */
  admin: string;
}

/**
 * One read path of the server: the routes (`METHOD /url` as Fastify registered them) or MCP
 * tools/resources (`mcp tool <name>`, `mcp resource <name>`) it covers, and how to read it.
 */
export interface ReadPath {
  covers: readonly string[];
  /**
   * A module's path that serves only its own protocol's rooms: read as every viewer for rooms of that
   * protocol, and as the admin alone for the others (a smoke read: it must not fail or serve them).
   */
  only?: string;
  probe(t: ProbeTarget): Promise<Delivery[]>;
}

/** A GET by `inject` with the viewer's credential. */
export async function get(t: ProbeTarget, url: string, name = url): Promise<Delivery & { json: unknown }> {
  const r = await t.h.app.inject({
    method: 'GET',
    url,
    headers: t.viewer.token ? { authorization: `Bearer ${t.viewer.token}` } : {},
  });
  let json: unknown = null;
  try {
    json = JSON.parse(r.body);
  } catch {
    // JSONL, Markdown, PHH: searched as text only
  }
  return { path: `GET ${name}`, status: r.statusCode, text: r.body, json };
}

export const enc = encodeURIComponent;
