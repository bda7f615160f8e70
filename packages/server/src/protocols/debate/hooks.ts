import { normalizeKey } from '@db8/protocols/debate';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime/index.ts';

/**
 * Debate rooms on the generic room routes, without touching them:
 * - creating a debate room (POST /v1/rooms) adds the server's room CA to `trust.ca_keys`, so the
 *   certificates POST /v1/rooms/:id/certs issues (`<seat>@<room_id>`) can sign submissions; the
 *   runtime fills `room_id`, which makes a certificate for another room fail (cross-room refusal);
 * - a principal taking a debater seat (POST /v1/rooms/:id/join) is bound to it by the moderator
 *   seat's sealed `bind_identity`, sent by the server, so stats_and_reveal can unmask the seat.
 */

export type DebateRuntime = Pick<Runtime, 'getRoom' | 'act'>;

/** `config` with `caLine` among its trusted CAs (once). Anything not an object is left to the schema. */
export function withRoomCa(config: unknown, caLine: string): unknown {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return config;
  const c = config as Record<string, unknown>;
  const trust = c.trust ?? {};
  if (trust === null || typeof trust !== 'object' || Array.isArray(trust)) return config;
  const t = trust as Record<string, unknown>;
  const cas = t.ca_keys ?? [];
  if (!Array.isArray(cas)) return config;
  const ours = normalizeKey(caLine);
  if (cas.some((k) => typeof k === 'string' && normalizeKey(k) === ours)) return config;
  return { ...c, trust: { ...t, ca_keys: [...cas, caLine] } };
}

/** Identity bindings are idempotent per (seat, principal): a rejoin writes nothing new. */
export async function bindIdentity(
  runtime: DebateRuntime,
  roomId: string,
  seat: string,
  principal: string,
): Promise<boolean> {
  const room = await runtime.getRoom(roomId);
  if (room.protocol !== 'debate' || room.status !== 'open') return false;
  if (room.seats.find((s) => s.id === seat)?.role !== 'debater') return false;
  await runtime.act(roomId, {
    seat: 'moderator',
    action: { type: 'bind_identity', seat, identity: principal },
    clientNonce: `bind:${seat}:${principal}`,
  });
  return true;
}

const isCreate = (req: FastifyRequest) => req.method === 'POST' && req.routeOptions.url === '/v1/rooms';
const isJoin = (req: FastifyRequest) =>
  req.method === 'POST' && req.routeOptions.url === '/v1/rooms/:id/join';

export function debateRoomHooks(app: FastifyInstance, runtime: DebateRuntime): void {
  const caLine = app.db8.caPublicLine;
  app.addHook('preHandler', async (req: FastifyRequest) => {
    if (!isCreate(req)) return;
    const body = req.body as { protocol?: unknown; config?: unknown } | undefined;
    if (body?.protocol === 'debate') body.config = withRoomCa(body.config ?? {}, caLine);
  });
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!isJoin(req) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    let joined: { room_id?: unknown; seat?: unknown; principal?: unknown };
    try {
      joined = JSON.parse(payload);
    } catch {
      return payload;
    }
    const { room_id: roomId, seat, principal } = joined;
    if (typeof roomId !== 'string' || typeof seat !== 'string' || typeof principal !== 'string')
      return payload;
    try {
      await bindIdentity(runtime, roomId, seat, principal);
    } catch (err) {
      // The seat is taken either way; a binding refused (e.g. after the final vote) only means the
      // seat stays anonymous in the results, so the join still succeeds.
      req.log.warn({ err, roomId, seat }, 'debate: bind_identity failed');
    }
    return payload;
  });
}
