import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
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

function restError(body: { error: { code: string; message: string } }): McpError {
  return new McpError(ErrorCode.InvalidParams, `${body.error.code}: ${body.error.message}`, body);
}

export function registerResources(server: McpServer, deps: ToolDeps): void {
  const listRooms = async (extra: Parameters<ToolDeps['rest']>[0], kind: 'view' | 'log') => {
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

  server.registerResource(
    'room-view',
    new ResourceTemplate('db8://rooms/{room_id}/view', { list: (extra) => listRooms(extra, 'view') }),
    {
      title: 'Room view',
      description: 'The room as you may see it, with your legal actions and turn token (as view_room).',
      mimeType: 'application/json',
    },
    async (uri, vars, extra) => {
      const id = String(vars.room_id);
      const r = await deps.rest(extra).get<State>(`/v1/rooms/${encodeURIComponent(id)}/state`);
      if (!r.ok) throw restError(r.body);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(viewOf(deps, r.body)) },
        ],
      };
    },
  );

  server.registerResource(
    'room-log',
    new ResourceTemplate('db8://rooms/{room_id}/log', { list: (extra) => listRooms(extra, 'log') }),
    {
      title: 'Room log',
      description: `The room's entries as you may see them (the first ${LOG_PAGE}; page on with the REST entries route).`,
      mimeType: 'application/json',
    },
    async (uri, vars, extra) => {
      const id = String(vars.room_id);
      const r = await deps
        .rest(extra)
        .get<object>(`/v1/rooms/${encodeURIComponent(id)}/entries${query({ fromSeq: 0, limit: LOG_PAGE })}`);
      if (!r.ok) throw restError(r.body);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(r.body) }] };
    },
  );
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
    if (!m) throw new McpError(ErrorCode.InvalidParams, `not a db8 room resource: ${uri}`);
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
