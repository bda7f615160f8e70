import { RoomEventSchema } from '@db8/core';
import { z } from 'zod';
import { ProtocolVersionSchema, RoomIdSchema, SeatIdSchema } from './common.ts';
import { AckSchema, EntryWireSchema, StateSchema } from './rest.ts';

/**
 * WebSocket messages on /v1/ws. Server -> client: `{type, room_id, seq, ts, payload, id?}`
 * (seed 002 §8.1). Client -> server: `{type, payload, id?}`; `id` is echoed on the reply so a
 * client can match acks and errors to requests.
 */

const Short = (max: number) => z.string().min(1).max(max);
const ReqId = Short(128).optional();

export const HelloSchema = z.object({
  type: z.literal('hello'),
  id: ReqId,
  payload: z.object({
    client_protocol_version: ProtocolVersionSchema,
    /** Session token; may also come as `?token=` on the upgrade URL or an Authorization header. */
    token: Short(4096).optional(),
  }),
});

export const SubscribeSchema = z.object({
  type: z.literal('subscribe'),
  id: ReqId,
  payload: z.object({
    room_id: RoomIdSchema,
    /** Resume: entries with seq > since are replayed first. Omit for live only; -1 for the whole log. */
    since: z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER).optional(),
    /** A room-scoped session token for this subscription (seat view); defaults to the connection's. */
    token: Short(4096).optional(),
    /**
     * `false`: entries only, no `state` pushes — one frame per append, for followers that fold the
     * log themselves or only record it. Default true.
     */
    state: z.boolean().optional(),
    /**
     * `true`: also send the room's typed events as `event` messages (seed 000: phase, timer,
     * submission, vote for debate; presence and typing for any room). Default false.
     */
    events: z.boolean().optional(),
  }),
});

/** The subscribed seat is editing a draft: at most one a second counts; it lasts a few seconds. */
export const TypingSchema = z.object({
  type: z.literal('typing'),
  id: ReqId,
  payload: z.object({ room_id: RoomIdSchema }),
});

export const UnsubscribeSchema = z.object({
  type: z.literal('unsubscribe'),
  id: ReqId,
  payload: z.object({ room_id: RoomIdSchema }),
});

export const ActionMessageSchema = z.object({
  type: z.literal('action'),
  id: ReqId,
  payload: z.object({
    room_id: RoomIdSchema,
    seat: SeatIdSchema,
    action: z.json(),
    client_nonce: Short(128).optional(),
    turn_token: Short(512).optional(),
    expected_seq: z.number().int().nonnegative().optional(),
  }),
});

export const PingSchema = z.object({
  type: z.literal('ping'),
  id: ReqId,
  payload: z.unknown().optional(),
});

export const ClientMessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  SubscribeSchema,
  UnsubscribeSchema,
  ActionMessageSchema,
  PingSchema,
  TypingSchema,
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;
export type ClientMessageType = ClientMessage['type'];

// ---------- server -> client ----------

const envelope = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({
    type: z.literal(type),
    room_id: z.string().nullable(),
    seq: z.number().int(),
    ts: z.string(),
    id: z.string().optional(),
    payload,
  });

export const WelcomePayloadSchema = z.object({
  protocol_version: z.string(),
  min_supported_protocol_version: z.string(),
  skill_doc_url: z.string(),
  principal: z.string().nullable(),
  role: z.string().nullable(),
  server_time_ms: z.number().int(),
  /** The server sends WebSocket ping frames at this interval; a socket that stops answering is dropped. */
  heartbeat_ms: z.number().int(),
});

export const SubscribedPayloadSchema = z.object({
  room_id: z.string(),
  viewer: z.object({ kind: z.string(), seat: z.string().optional() }),
  head_seq: z.number().int(),
});

export const ErrorPayloadSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

export const WelcomeMessageSchema = envelope('welcome', WelcomePayloadSchema);
export const SubscribedMessageSchema = envelope('subscribed', SubscribedPayloadSchema);
export const UnsubscribedMessageSchema = envelope('unsubscribed', z.object({ room_id: z.string() }));
export const StateMessageSchema = envelope('state', StateSchema);
export const EntryMessageSchema = envelope('entry', z.object({ entry: EntryWireSchema }));
export const AckMessageSchema = envelope('ack', AckSchema);
export const ErrorMessageSchema = envelope('error', ErrorPayloadSchema);
export const PongMessageSchema = envelope('pong', z.object({}).loose());
/** A typed room event (the same object SSE `/events` sends; a protocol's schema types the rest). */
export const EventMessageSchema = envelope('event', RoomEventSchema);

export const ServerMessageSchema = z.discriminatedUnion('type', [
  WelcomeMessageSchema,
  SubscribedMessageSchema,
  UnsubscribedMessageSchema,
  StateMessageSchema,
  EntryMessageSchema,
  AckMessageSchema,
  ErrorMessageSchema,
  PongMessageSchema,
  EventMessageSchema,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
