import { verifyBundleText } from '@db8/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Bus } from '../bus/types.ts';
import type { AppContext } from '../routes/context.ts';
import { type ErrorBody, ProtocolVersionSchema, RoomIdSchema, SeatIdSchema } from '../schemas/common.ts';
import { toJsonSchema } from '../schemas/protocol-json.ts';
import type { Ack, EntryWire, JoinResponse, State } from '../schemas/rest.ts';
import { query, type RestCaller, type RestResult } from './rest.ts';
import type { ActionSchemas } from './schemas.ts';
import { MAX_WAIT_MS, waitOnRoom } from './wait.ts';

/**
 * The MCP tools. Every one is generic: the per-protocol `act_<protocol>` tools are generated from
 * the module registry (their `action` documented by the protocol's own action schema), so adding a
 * protocol adds its tool with no code here. Each tool answers its REST twin's body, or the REST
 * error body `{error:{code,message,details}}` with isError set.
 */

export interface ToolDeps {
  ctx: AppContext;
  bus: Bus;
  schemas: ActionSchemas;
  /** A REST caller with the credentials of the MCP request being served. */
  rest(extra: { requestInfo?: { headers: Record<string, string | string[] | undefined> } }): RestCaller;
}

const ok = (value: object): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});
const failed = (body: object): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body as Record<string, unknown>,
});
const answer = <T extends object>(r: RestResult<T>, map: (b: T) => object = (b) => b) =>
  r.ok ? ok(map(r.body)) : failed(r.body);

/** `act_<protocol>`, in the characters every MCP client accepts in a tool name. */
export function actToolName(protocol: string): string {
  return `act_${protocol.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/** What `view_room` and `wait` answer: the REST state with each legal action's JSON Schema. */
export function viewOf(deps: ToolDeps, s: State): Record<string, unknown> {
  return {
    room_id: s.room_id,
    protocol: s.protocol,
    status: s.status,
    seq: s.seq,
    viewer: s.viewer,
    view: s.view,
    legal_actions: s.legal ? deps.schemas.annotate(s.protocol, s.legal.actions) : [],
    turn_token: s.turn_token,
    deadline_unix: s.deadline_unix,
    deadline_ms: s.deadline_ms,
    act_tool: deps.ctx.modules.get(s.protocol)?.actTool === false ? null : actToolName(s.protocol),
  };
}

/** A schema embedded as property `key`: its local `$ref`s (to its own `$defs`) must follow it there. */
function nestedUnder(key: string, schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$defs' in schema)) return schema;
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', `"#/properties/${key}/$defs/`));
}

const roomId = RoomIdSchema.describe('the room id (room_…), from list_rooms');

export function registerTools(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps;
  const state = (rest: RestCaller, id: string) =>
    rest.get<State>(`/v1/rooms/${encodeURIComponent(id)}/state`);

  server.registerTool(
    'list_rooms',
    {
      title: 'List rooms',
      description:
        'Rooms on this db8 server, newest first, with their seats (taken or free), and the protocols it runs.',
      inputSchema: {
        protocol: z.string().max(64).optional().describe('only rooms of this protocol'),
        status: z.enum(['open', 'closed']).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        cursor: z.string().max(256).optional().describe('next_cursor of the previous page'),
      },
      annotations: { readOnlyHint: true },
    },
    async (a, extra) => {
      const r = await deps
        .rest(extra)
        .get<{ rooms: unknown[]; next_cursor: string | null }>(
          `/v1/rooms${query({ protocol: a.protocol, status: a.status, limit: a.limit, cursor: a.cursor })}`,
        );
      const protocols = [...ctx.modules.values()].map((m) => ({
        name: m.protocol.name,
        version: m.protocol.version,
        act_tool: m.actTool === false ? null : actToolName(m.protocol.name),
      }));
      return answer(r, (b) => ({ ...b, protocols }));
    },
  );

  server.registerTool(
    'list_protocols',
    {
      title: 'Protocols and their schemas',
      description: 'Each protocol this server runs with its room config and action JSON Schemas.',
      inputSchema: { protocol: z.string().max(64).optional().describe('just this one') },
      annotations: { readOnlyHint: true },
    },
    async (a) => {
      const protocols = [...ctx.modules.values()]
        .filter((m) => a.protocol === undefined || m.protocol.name === a.protocol)
        .map((m) => ({
          name: m.protocol.name,
          version: m.protocol.version,
          act_tool: m.actTool === false ? null : actToolName(m.protocol.name),
          config_schema: toJsonSchema(m.createSchema ?? m.protocol.configSchema),
          action_schema: deps.schemas.of(m.protocol.name),
        }));
      return ok({ protocols });
    },
  );

  server.registerTool(
    'join_room',
    {
      title: 'Take a seat',
      description:
        'Take a seat in a room (the given one, or the first free one). Joining again returns your seat. ' +
        'This connection then plays that seat: view_room, wait and the act tool use it.',
      inputSchema: {
        room_id: roomId,
        seat: SeatIdSchema.optional().describe('a free seat id from list_rooms; omit for the first free one'),
        invite: z.string().max(4096).optional().describe('an invite token, for people'),
        client_protocol_version: ProtocolVersionSchema.optional().describe(
          'the db8 protocol version you were written for; an outdated one gets OUTDATED_CLIENT',
        ),
      },
    },
    async (a, extra) => {
      const { room_id, ...body } = a;
      const r = await deps
        .rest(extra)
        .post<JoinResponse>(`/v1/rooms/${encodeURIComponent(room_id)}/join`, body);
      // The session token stays out of the model's context: this connection's credential plays the seat.
      return answer(r, ({ session_token: _t, ws_url: _w, ...rest }) => ({ ...rest, next: 'view_room' }));
    },
  );

  server.registerTool(
    'view_room',
    {
      title: 'View the room',
      description:
        'The room as you may see it: your view, your legal actions each with its JSON Schema, turn_token ' +
        '(echo it when you act), deadline_unix (the server acts for you after it), seq and the act tool to use.',
      inputSchema: { room_id: roomId },
      annotations: { readOnlyHint: true },
    },
    async (a, extra) => answer(await state(deps.rest(extra), a.room_id), (s) => viewOf(deps, s)),
  );

  for (const m of ctx.modules.values()) {
    // A module's own tools, through its REST routes with this request's credentials.
    for (const t of m.mcpTools ?? []) {
      server.registerTool(
        t.name,
        {
          title: t.title,
          description: t.description,
          // Strict: an argument the tool does not take is refused, not silently dropped.
          inputSchema: z.object(t.inputSchema).strict(),
          ...(t.readOnly ? { annotations: { readOnlyHint: true } } : {}),
        },
        async (a: Record<string, unknown>, extra) =>
          answer((await t.call(a, deps.rest(extra))) as RestResult<object>),
      );
    }
    if (m.actTool === false) continue;
    const name = m.protocol.name;
    const actionSchema = nestedUnder('action', deps.schemas.of(name) ?? {});
    server.registerTool(
      actToolName(name),
      {
        title: `Act in a ${name} room`,
        description:
          `Submit an action for your seat in a ${name} room (protocol v${m.protocol.version}). Returns the ack ` +
          '{seq, duplicate, ts} or a typed error {error:{code,message,details}}. Echo the turn_token of ' +
          'view_room; a retry with the same turn_token or client_nonce returns the same ack.',
        inputSchema: {
          room_id: roomId,
          // Documented by the protocol's schema; validated by the runtime, whose rejection is typed.
          action: z.record(z.string(), z.unknown()).meta(actionSchema),
          seat: SeatIdSchema.optional().describe('your seat; omit to use the one this connection holds'),
          turn_token: z.string().max(512).optional(),
          expected_seq: z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe('refuse with STALE_SEQ if the room moved'),
          client_nonce: z.string().max(128).optional().describe('idempotency key for retries'),
        },
      },
      async (a, extra) => {
        const rest = deps.rest(extra);
        const base = `/v1/rooms/${encodeURIComponent(a.room_id)}`;
        const s = await state(rest, a.room_id);
        if (!s.ok) return failed(s.body);
        if (s.body.protocol !== name) {
          return failed({
            error: {
              code: 'WRONG_PROTOCOL',
              message: `room ${a.room_id} runs ${s.body.protocol}: use ${actToolName(s.body.protocol)}`,
              details: { protocol: s.body.protocol },
            },
          });
        }
        const seat = a.seat ?? (s.body.viewer.kind === 'seat' ? s.body.viewer.seat : undefined);
        if (!seat) {
          return failed({
            error: {
              code: 'SEAT_NOT_HELD',
              message: `you hold no seat in ${a.room_id}: call join_room first`,
            },
          });
        }
        const r = await rest.post<Ack>(`${base}/actions`, {
          seat,
          action: a.action,
          ...(a.turn_token !== undefined ? { turn_token: a.turn_token } : {}),
          ...(a.expected_seq !== undefined ? { expected_seq: a.expected_seq } : {}),
          ...(a.client_nonce !== undefined ? { client_nonce: a.client_nonce } : {}),
        });
        return answer(r);
      },
    );
  }

  server.registerTool(
    'wait',
    {
      title: 'Wait for your turn or the next entry',
      description:
        `Long poll (at most ${MAX_WAIT_MS / 1000} s). for="turn": until you hold a turn_token or the room ` +
        'closes. for="entry": until the log grows past since_seq (default: its seq now). Answers ' +
        '{reason: turn|entry|closed|timeout, state (as view_room), entries (new ones, as you may see them)}.',
      inputSchema: {
        room_id: roomId,
        for: z.enum(['turn', 'entry']).default('turn'),
        since_seq: z.number().int().min(-1).optional(),
        timeout_ms: z.number().int().min(0).max(MAX_WAIT_MS).default(20_000),
      },
      annotations: { readOnlyHint: true },
    },
    async (a, extra) => {
      const rest = deps.rest(extra);
      const first = await state(rest, a.room_id);
      if (!first.ok) return failed(first.body);
      const since = a.since_seq ?? first.body.seq;
      const reasonOf = (s: State): 'turn' | 'entry' | 'closed' | null => {
        if (a.for === 'turn' && s.turn_token !== null) return 'turn';
        if (a.for === 'entry' && s.seq > since) return 'entry';
        return s.status === 'closed' ? 'closed' : null;
      };
      let last: State = first.body;
      let next: RestResult<State> | null = first;
      const hit = await waitOnRoom(
        deps.bus,
        a.room_id,
        async (): Promise<{ error: ErrorBody } | { reason: 'turn' | 'entry' | 'closed' } | null> => {
          const s = next ?? (await state(rest, a.room_id));
          next = null;
          if (!s.ok) return { error: s.body };
          last = s.body;
          const reason = reasonOf(s.body);
          return reason ? { reason } : null;
        },
        a.timeout_ms,
        extra.signal,
      );
      if (hit && 'error' in hit) return failed(hit.error);
      const reason = hit?.reason ?? 'timeout';
      const entries =
        last.seq > since
          ? await rest.get<{ entries: EntryWire[] }>(
              `/v1/rooms/${encodeURIComponent(a.room_id)}/entries${query({ fromSeq: since + 1, limit: 100 })}`,
            )
          : null;
      return ok({
        reason,
        state: viewOf(deps, last),
        entries: entries?.ok ? entries.body.entries : [],
      });
    },
  );

  server.registerTool(
    'export_room',
    {
      title: 'Export the journal bundle',
      description:
        "The room's journal bundle (JSONL: room, entries as you may see them, signed checkpoints, keys), " +
        'verifiable offline with `db8 verify` or verify_bundle. `as` exports as a lesser class (public, seat:<id>).',
      inputSchema: { room_id: roomId, as: z.string().max(160).optional() },
      annotations: { readOnlyHint: true },
    },
    async (a, extra) => {
      const r = await deps
        .rest(extra)
        .text(`/v1/rooms/${encodeURIComponent(a.room_id)}/export${query({ as: a.as })}`);
      if (!r.ok) return failed(r.body);
      return { content: [{ type: 'text', text: r.body }] };
    },
  );

  server.registerTool(
    'verify_bundle',
    {
      title: 'Verify a journal bundle',
      description:
        'Checks a journal bundle (given as JSONL text, or exported now from room_id): every leaf, the Merkle ' +
        "root, each signed checkpoint against this server's key, every reveal against its commitment.",
      inputSchema: {
        room_id: roomId.optional(),
        bundle: z.string().max(50_000_000).optional().describe('JSONL text from export_room or /export'),
      },
      annotations: { readOnlyHint: true },
    },
    async (a, extra) => {
      let text = a.bundle;
      if (text === undefined) {
        if (a.room_id === undefined) {
          return failed({ error: { code: 'BAD_REQUEST', message: 'give room_id or bundle' } });
        }
        const r = await deps.rest(extra).text(`/v1/rooms/${encodeURIComponent(a.room_id)}/export`);
        if (!r.ok) return failed(r.body);
        text = r.body;
      }
      const result = verifyBundleText(text, { pinnedKey: ctx.runtime.serverKey.noteVerifierKey });
      return ok(result);
    },
  );
}
