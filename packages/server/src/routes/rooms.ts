import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  canonicalize,
  parseSshPublicKey,
  signCertificate,
  viewerClassCovers,
  viewerClassOf,
  viewerOfClass,
} from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, badRequest } from '../errors.ts';
import { ExportQuerySchema } from '../schemas/export.ts';
import { toJsonSchema } from '../schemas/protocol-json.ts';
import {
  AckSchema,
  ActionBodySchema,
  CheckpointsResponseSchema,
  CreateRoomBodySchema,
  EntriesQuerySchema,
  EntriesResponseSchema,
  IssueCertBodySchema,
  IssueCertResponseSchema,
  ListRoomsQuerySchema,
  ListRoomsResponseSchema,
  ProofResponseSchema,
  RoomParamsSchema,
  RoomSchema,
  SeqParamsSchema,
  StateSchema,
} from '../schemas/rest.ts';
import { actorFor, viewerIn } from './access.ts';
import { type AppContext, requireAdmin } from './context.ts';
import { joinRoutes } from './join.ts';
import { seatLabelsOf } from './seat-labels.ts';
import { ackToWire, roomToWire, stateToWire } from './wire.ts';
import type { ZodTypeProvider } from './zod.ts';

/** OUTDATED_CLIENT (seed 002 §6.2): says where to read the current skill doc. */

/**
 * POST /v1/rooms as /docs shows it: `config` documented per protocol (each module's create schema,
 * one `anyOf` branch titled by protocol name). Validation of `config` stays the runtime's, after the
 * module has prepared it, so the error is BAD_CONFIG with the protocol's own issues.
 */
function createRoomBodyFor(modules: AppContext['modules']) {
  const names = [...modules.keys()];
  const configs = [...modules.values()].map((m) => {
    const { $schema: _drop, ...js } = toJsonSchema(m.createSchema ?? m.protocol.configSchema);
    return { title: m.protocol.name, ...js };
  });
  return CreateRoomBodySchema.extend({
    protocol: CreateRoomBodySchema.shape.protocol.meta({ examples: names }),
    // Plain `unknown` for the docs: z.json() is recursive and would show as a $ref into $defs.
    config: z.unknown().default({}).meta({ anyOf: configs }),
  });
}

export function roomRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const rt = ctx.runtime;

  const tags = ['rooms'];
  // Invites and joins (who may take which seat) live in join.ts.
  joinRoutes(root, ctx);

  app.post(
    '/v1/rooms',
    {
      schema: {
        tags,
        summary: 'Create a room (admin)',
        body: createRoomBodyFor(ctx.modules),
        response: { 201: RoomSchema },
      },
    },
    async (req, reply) => {
      const admin = requireAdmin(req);
      const { protocol, drivers = {}, room_budget: roomBudget } = req.body;
      const driven = Object.keys(drivers).length > 0;
      if (driven) {
        if (!ctx.drivers) throw new ApiError(400, 'BAD_DRIVERS', 'this server runs no model drivers');
        ctx.drivers.check(protocol, drivers);
      }
      const module = ctx.modules.get(protocol);
      const config = module?.prepareConfig
        ? await module.prepareConfig(req.body.config, {
            caPublicLine: ctx.caPublicLine,
            drivers,
            env: ctx.env,
            db: ctx.store.db,
          })
        : req.body.config;
      const room = await rt.createRoom({
        protocol,
        config,
        ...(req.body.title !== undefined ? { title: req.body.title } : {}),
        createdBy: admin.principal,
      });
      if (driven && ctx.drivers) {
        const known = new Set(room.seats.map((s) => s.id));
        const unknown = Object.keys(drivers).filter((s) => !known.has(s));
        if (unknown.length) req.log.warn({ roomId: room.id, unknown }, 'drivers: no such seats, ignored');
        const specs = Object.fromEntries(Object.entries(drivers).filter(([seat]) => known.has(seat)));
        await ctx.drivers.attach(room.id, specs, roomBudget);
      }
      return reply.code(201).send(roomToWire(room, new Set(Object.keys(drivers))));
    },
  );

  app.get(
    '/v1/rooms',
    {
      schema: {
        tags,
        summary: 'List rooms, newest first',
        querystring: ListRoomsQuerySchema,
        response: { 200: ListRoomsResponseSchema },
      },
    },
    async (req) => {
      const q = req.query;
      const rooms = await rt.listRooms({
        limit: q.limit,
        ...(q.protocol ? { protocol: q.protocol } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.cursor ? { cursor: q.cursor } : {}),
      });
      const driven = (await ctx.drivers?.drivenSeats(rooms.map((r) => r.id))) ?? new Map();
      const last = rooms.at(-1);
      return {
        rooms: rooms.map((r) => roomToWire(r, driven.get(r.id))),
        next_cursor: rooms.length === q.limit && last ? `${last.createdAt}:${last.id}` : null,
      };
    },
  );

  app.get(
    '/v1/rooms/:id',
    { schema: { tags, summary: 'One room', params: RoomParamsSchema, response: { 200: RoomSchema } } },
    async (req) => {
      const room = await rt.getRoom(req.params.id);
      const labels = await seatLabelsOf(ctx.seatLabelers, room, req.log);
      return roomToWire(room, (await ctx.drivers?.drivenSeats([room.id]))?.get(room.id), labels);
    },
  );

  app.get(
    '/v1/rooms/:id/state',
    {
      schema: {
        tags,
        summary: 'The room as this caller may see it, with legal actions and turn token for a seat',
        params: RoomParamsSchema,
        response: { 200: StateSchema },
      },
    },
    async (req) => {
      const viewer = await viewerIn(ctx, req.auth, req.params.id);
      return stateToWire(req.params.id, viewer, await rt.stateFor(req.params.id, viewer));
    },
  );

  app.post(
    '/v1/rooms/:id/actions',
    {
      schema: {
        tags,
        summary: 'Act for your seat; a retry with the same turn_token or client_nonce returns the same ack',
        params: RoomParamsSchema,
        body: ActionBodySchema,
        response: { 200: AckSchema },
      },
    },
    async (req) => {
      const b = req.body;
      const principal = actorFor(req.auth, req.params.id, b.seat);
      const ack = await rt.act(req.params.id, {
        seat: b.seat,
        action: b.action,
        ...(b.client_nonce !== undefined ? { clientNonce: b.client_nonce } : {}),
        ...(b.turn_token !== undefined ? { turnToken: b.turn_token } : {}),
        ...(b.expected_seq !== undefined ? { expectedSeq: b.expected_seq } : {}),
        ...(principal !== undefined ? { principal } : {}),
      });
      return ackToWire(req.params.id, ack);
    },
  );

  app.get(
    '/v1/rooms/:id/entries',
    {
      schema: {
        tags,
        summary: 'Page the log from fromSeq, redacted for this caller',
        params: RoomParamsSchema,
        querystring: EntriesQuerySchema,
        response: { 200: EntriesResponseSchema },
      },
    },
    async (req) => {
      const viewer = await viewerIn(ctx, req.auth, req.params.id);
      const { fromSeq, limit } = req.query;
      const entries = await rt.entries(req.params.id, viewer, fromSeq, limit);
      const last = entries.at(-1);
      return {
        room_id: req.params.id,
        entries,
        next_seq: entries.length === limit && last ? last.seq + 1 : null,
      } as z.input<typeof EntriesResponseSchema>;
    },
  );

  app.get(
    '/v1/rooms/:id/entries/:seq/proof',
    {
      schema: {
        tags,
        summary: 'RFC 6962 inclusion proof of an entry against a signed checkpoint',
        params: SeqParamsSchema,
        response: { 200: ProofResponseSchema },
      },
    },
    async (req) => {
      const p = await rt.proof(req.params.id, req.params.seq);
      return {
        room_id: req.params.id,
        seq: req.params.seq,
        leaf_hash: p.leafHash,
        index: p.index,
        tree_size: p.treeSize,
        proof: p.proof,
        checkpoint: p.checkpoint,
      };
    },
  );

  app.get(
    '/v1/rooms/:id/checkpoints',
    {
      schema: {
        tags,
        summary: 'Signed tree heads (C2SP signed notes) of the room log',
        params: RoomParamsSchema,
        response: { 200: CheckpointsResponseSchema },
      },
    },
    async (req) => ({
      room_id: req.params.id,
      checkpoints: (await rt.checkpoints(req.params.id)).map((c) => ({
        size: c.size,
        root_hash: c.rootHash,
        note: c.note,
        milestone: c.milestone ?? null,
      })),
    }),
  );

  app.get(
    '/v1/rooms/:id/export',
    {
      schema: {
        tags,
        summary:
          'The journal bundle as JSONL (room, entries as this caller may see them, checkpoints, keys); ' +
          '?as=public|seat:<id>|admin exports as that class, never more than the token grants (403)',
        params: RoomParamsSchema,
        querystring: ExportQuerySchema,
      },
    },
    async (req, reply) => {
      await rt.getRoom(req.params.id); // 404 before any byte is streamed
      const granted = await viewerIn(ctx, req.auth, req.params.id);
      const want = req.query.as;
      const have = viewerClassOf(granted);
      if (want !== undefined && !viewerClassCovers(have, want))
        throw new ApiError(403, 'FORBIDDEN', `this token exports this room as ${have}, not ${want}`);
      const viewer = want === undefined ? granted : viewerOfClass(want);
      const records = rt.export(req.params.id, viewer);
      async function* jsonl() {
        for await (const r of records) yield `${canonicalize(r)}\n`;
      }
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${req.params.id}.jsonl"`)
        .send(Readable.from(jsonl()));
    },
  );

  app.post(
    '/v1/rooms/:id/certs',
    {
      schema: {
        tags,
        summary: 'Certify your SSH key for your seat (principal <seat>@<room>), signed by the room CA',
        params: RoomParamsSchema,
        body: IssueCertBodySchema,
        response: { 200: IssueCertResponseSchema },
      },
    },
    async (req) => {
      const roomId = req.params.id;
      const viewer = await viewerIn(ctx, req.auth, roomId);
      if (viewer.kind !== 'seat')
        throw new ApiError(403, 'SEAT_NOT_HELD', 'only a seat holder gets a certificate');
      let publicKey: Uint8Array;
      try {
        publicKey = parseSshPublicKey(req.body.public_key).publicKey;
      } catch (e) {
        throw badRequest(`public_key: ${(e as Error).message}`);
      }
      const now = ctx.clock();
      const validBefore = now + (req.body.ttl_sec ?? 3600) * 1000;
      const principal = `${viewer.seat}@${roomId}`;
      const cert = signCertificate({
        caSeed: ctx.serverKey.seed,
        publicKey,
        keyId: `${req.auth!.principal} ${principal}`,
        principals: [principal],
        validAfter: now - 60_000,
        validBefore,
        serial: Number.parseInt(randomBytes(4).toString('hex'), 16),
      });
      return {
        certificate: cert.line,
        principal,
        valid_before: new Date(Math.floor(validBefore / 1000) * 1000).toISOString(),
        ca_public_key: ctx.caPublicLine,
      };
    },
  );
}
