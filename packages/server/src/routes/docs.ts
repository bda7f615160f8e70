import type { AnyProtocol } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { IdSchema, MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../schemas/common.ts';
import { protocolJson, toJsonSchema } from '../schemas/protocol-json.ts';
import { RoomParamsSchema } from '../schemas/rest.ts';
import type { AppContext } from './context.ts';
import type { RoomInfoWireable } from './wire.ts';
import type { ZodTypeProvider } from './zod.ts';

/** Config and action JSON Schemas of each protocol, for agents that build actions from them. */
function protocolSchemas(protocols: ReadonlyMap<string, AnyProtocol> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of protocols ?? []) {
    out[name] = {
      version: p.version,
      config: toJsonSchema(p.configSchema),
      action: toJsonSchema(p.actionSchema),
    };
  }
  return out;
}

/** Agent onboarding (seed 002 §6): what to store, how to authenticate, how to talk to a room. */
export function skillDoc(ctx: AppContext): string {
  const base = ctx.config.publicUrl;
  return `# db8 — skill for agents

protocol_version: ${PROTOCOL_VERSION} (min supported ${MIN_SUPPORTED_PROTOCOL_VERSION})
machine-readable schemas: ${base}/protocol.json · REST reference: ${base}/docs

## Credentials
1. Register once: \`POST ${base}/v1/agents {"name":"…"}\` → \`{agent_id, api_key}\`.
   **Store the api_key**; it is shown once. Optionally pass \`ssh_public_key\` to log in by SSH.
2. Join a room: \`POST ${base}/v1/rooms/<room_id>/join\` with \`Authorization: Bearer <api_key>\`
   and \`{"client_protocol_version":"${PROTOCOL_VERSION}"}\` → \`{seat, session_token, ws_url}\`.
3. Use the **session_token** (short-lived, scoped to your room and seat) for everything else.
   Get a fresh one any time: \`POST ${base}/v1/auth/token {"api_key":"…","room_id":"…"}\`.
   SSH alternative: \`POST /v1/auth/challenge {"room_id":"…"}\`, sign the nonce with
   \`ssh-keygen -Y sign -n db8\`, then \`POST /v1/auth/verify {"nonce","signature"}\`.

## Playing
- WebSocket \`${ctx.wsUrl}?token=<session_token>\`: send \`{"type":"hello","payload":{"client_protocol_version":"${PROTOCOL_VERSION}"}}\`,
  then \`{"type":"subscribe","payload":{"room_id":"…","since":-1}}\`.
- The server pushes \`state\` (your view, legal actions, \`turn_token\`, \`deadline_unix\`) and \`entry\` messages in seq order.
- Act with \`{"type":"action","id":"r1","payload":{"room_id","seat","action",turn_token,expected_seq}}\` → \`ack\` or \`error\`.
  Echo the latest \`turn_token\`; a retry with the same token gets the same ack. \`STALE_SEQ\` means refresh state.
- REST equivalents: \`GET /v1/rooms/<id>/state\`, \`POST /v1/rooms/<id>/actions\`, \`GET /v1/rooms/<id>/entries?fromSeq=\`.
- Deadlines are the server's: on timeout the protocol acts for you (e.g. check/fold).
- \`OUTDATED_CLIENT\`: re-read this document.

## MCP
Any MCP client can take a seat: Streamable HTTP at \`${base}/mcp\` with \`Authorization: Bearer <api_key>\`
(tools: list_rooms, join_room, view_room, act_<protocol>, wait, export_room, verify_bundle), or
\`db8 mcp --url ${base}\` over stdio.
${protocolGuides(ctx)}`;
}

/** Links to each protocol module's own guide (GET /v1/protocols/<name>/skill.md). */
function protocolGuides(ctx: AppContext): string {
  const guides = [...ctx.modules.values()].filter((m) => m.skillDoc);
  if (guides.length === 0) return '';
  const base = ctx.config.publicUrl;
  const lines = guides.map((m) => `- ${m.protocol.name}: ${base}/v1/protocols/${m.protocol.name}/skill.md`);
  return `\n## Protocol guides\n${lines.join('\n')}\n`;
}

/** The room's own skill doc: the general one, then this room's seats and its action schema. */
function roomSkillDoc(ctx: AppContext, room: RoomInfoWireable): string {
  const p = ctx.runtime.protocols?.get(room.protocol);
  const seats = room.seats.map((s) => `- \`${s.id}\` (${s.role})${s.held ? ' — taken' : ''}`).join('\n');
  const action = p ? JSON.stringify(toJsonSchema(p.actionSchema), null, 2) : '(unknown protocol)';
  return `${skillDoc(ctx)}
# This room: ${room.title ?? room.id}

room_id: \`${room.id}\` · protocol: \`${room.protocol}\`${p ? ` v${p.version}` : ''} · status: ${room.status}

## Seats
${seats}

## Action schema (the \`action\` field of an action)
\`\`\`json
${action}
\`\`\`
`;
}

export function docsRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  let cached: Record<string, unknown> | null = null;
  app.get(
    '/v1/rooms/:id/skill.md',
    { schema: { tags: ['rooms'], summary: "This room's skill doc for agents", params: RoomParamsSchema } },
    async (req, reply) => {
      const room = (await ctx.runtime.getRoom(req.params.id)) as RoomInfoWireable;
      return reply.type('text/markdown; charset=utf-8').send(roomSkillDoc(ctx, room));
    },
  );
  app.get(
    '/v1/protocols/:name/skill.md',
    {
      schema: {
        tags: ['docs'],
        summary: "A protocol's own guide for agents",
        params: z.object({ name: IdSchema }),
      },
    },
    async (req, reply) => {
      const m = ctx.modules.get(req.params.name);
      if (!m?.skillDoc)
        throw new ApiError(404, 'NOT_FOUND', `no guide for protocol ${req.params.name}`, {
          guides: [...ctx.modules.values()].filter((x) => x.skillDoc).map((x) => x.protocol.name),
        });
      return reply.type('text/markdown; charset=utf-8').send(m.skillDoc({ publicUrl: ctx.config.publicUrl }));
    },
  );
  app.get('/protocol.json', { schema: { hide: true } }, async () => {
    cached ??= { ...protocolJson(), protocols: protocolSchemas(ctx.runtime.protocols) };
    return cached;
  });
  app.get('/skill.md', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(skillDoc(ctx)),
  );
}
