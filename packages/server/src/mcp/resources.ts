import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Bus } from '../bus/types.ts';
import type { State } from '../schemas/rest.ts';
import { query } from './rest.ts';
import { type ToolDeps, viewOf } from './tools.ts';

/**
 * Resources: `db8://rooms/<id>/view` (what view_room answers) and `db8://rooms/<id>/log` (the
 * entries as the caller may see them). A subscription listens on the bus for the room and sends
 * `notifications/resources/updated` on each new entry; the client then reads with its own
 * credentials, so a notification carries nothing but the URI.
 */

const URI = /^db8:\/\/rooms\/([A-Za-z0-9_-]{1,128})\/(view|log)$/;
const LOG_PAGE = 1000;
/** Rooms one session may follow at once (each is a bus subscription). */
const MAX_ROOMS = 64;

export const viewUri = (roomId: string) => `db8://rooms/${roomId}/view`;
export const logUri = (roomId: string) => `db8://rooms/${roomId}/log`;

/** The MCP spec's code for a resource that does not exist (JSON-RPC leaves -32000…-32099 to servers). */
export const RESOURCE_NOT_FOUND = -32002;
const resourceNotFound = (uri: string) => new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri });

function restError(
  uri: string,
  status: number,
  body: { error: { code: string; message: string } },
): McpError {
  if (status === 404) return resourceNotFound(uri);
  return new McpError(ErrorCode.InvalidParams, `${body.error.code}: ${body.error.message}`, body);
}

type Extra = Parameters<ToolDeps['rest']>[0];

export function registerResources(server: McpServer, deps: ToolDeps): void {
  const listRooms = async (extra: Extra, kind: 'view' | 'log') => {
    const r = await deps
      .rest(extra)
      .get<{ rooms: Array<{ room_id: string; title: string | null; protocol: string }> }>(
        `/v1/rooms${query({ limit: 50 })}`,
      );
    const rooms = r.ok ? r.body.rooms : [];
    return {
      resources: rooms.map((room) => ({
        uri: kind === 'view' ? viewUri(room.room_id) : logUri(room.room_id),
        name: `${room.title ?? room.room_id} (${room.protocol}) ${kind}`,
        mimeType: 'application/json',
      })),
    };
  };

  const read = {
    view: async (uri: string, id: string, extra: Extra): Promise<ReadResourceResult> => {
      const r = await deps.rest(extra).get<State>(`/v1/rooms/${encodeURIComponent(id)}/state`);
      if (!r.ok) throw restError(uri, r.status, r.body);
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(viewOf(deps, r.body)) }],
      };
    },
    log: async (uri: string, id: string, extra: Extra): Promise<ReadResourceResult> => {
      const r = await deps
        .rest(extra)
        .get<object>(`/v1/rooms/${encodeURIComponent(id)}/entries${query({ fromSeq: 0, limit: LOG_PAGE })}`);
      if (!r.ok) throw restError(uri, r.status, r.body);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(r.body) }] };
    },
  };

  server.registerResource(
    'room-view',
    new ResourceTemplate('db8://rooms/{room_id}/view', { list: (extra) => listRooms(extra, 'view') }),
    {
      title: 'Room view',
      description: 'The room as you may see it, with your legal actions and turn token (as view_room).',
      mimeType: 'application/json',
    },
    (uri, vars, extra) => read.view(uri.href, String(vars.room_id), extra),
  );

  server.registerResource(
    'room-log',
    new ResourceTemplate('db8://rooms/{room_id}/log', { list: (extra) => listRooms(extra, 'log') }),
    {
      title: 'Room log',
      description: `The room's entries as you may see them (the first ${LOG_PAGE}; page on with the REST entries route).`,
      mimeType: 'application/json',
    },
    (uri, vars, extra) => read.log(uri.href, String(vars.room_id), extra),
  );

  // The SDK's own resources/read answers an unknown URI with -32602; the spec says -32002. Both
  // templates are ours, so one match on URI decides (the SDK keeps listing them).
  server.server.removeRequestHandler(ReadResourceRequestSchema.shape.method.value);
  server.server.setRequestHandler(ReadResourceRequestSchema, (req, extra) => {
    const m = URI.exec(req.params.uri);
    if (!m) throw resourceNotFound(req.params.uri);
    return read[m[2] as 'view' | 'log'](req.params.uri, m[1]!, extra);
  });
}

/** Per MCP session: which resource URIs it follows, one bus subscription per room. */
export class Subscriptions {
  private readonly rooms = new Map<string, { uris: Set<string>; stop: () => void }>();

  constructor(
    private readonly server: McpServer,
    private readonly bus: Bus,
  ) {
    server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
      this.add(req.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
      this.remove(req.params.uri);
      return {};
    });
  }

  add(uri: string): void {
    const m = URI.exec(uri);
    if (!m) throw resourceNotFound(uri);
    const roomId = m[1]!;
    let room = this.rooms.get(roomId);
    if (!room) {
      if (this.rooms.size >= MAX_ROOMS) {
        throw new McpError(ErrorCode.InvalidRequest, `a session follows at most ${MAX_ROOMS} rooms`);
      }
      const uris = new Set<string>();
      const stop = this.bus.subscribe(roomId, () => {
        for (const u of uris) void this.server.server.sendResourceUpdated({ uri: u }).catch(() => {});
      });
      room = { uris, stop };
      this.rooms.set(roomId, room);
    }
    room.uris.add(uri);
  }

  remove(uri: string): void {
    const roomId = URI.exec(uri)?.[1];
    const room = roomId ? this.rooms.get(roomId) : undefined;
    if (!room || !roomId) return;
    room.uris.delete(uri);
    if (room.uris.size === 0) {
      room.stop();
      this.rooms.delete(roomId);
    }
  }

  close(): void {
    for (const r of this.rooms.values()) r.stop();
    this.rooms.clear();
  }
}
