// @db8/sdk — typed client for the db8 REST, WebSocket and SSE APIs. Wire types come from the
// server's zod schemas (@db8/server/schemas), so client and server cannot drift apart silently.
export type * from '@db8/server/schemas';
export {
  AgentProfileSchema,
  AgentsResponseSchema,
  ClientMessageSchema,
  compareVersions,
  MIN_SUPPORTED_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  ServerMessageSchema,
} from '@db8/server/schemas';
export {
  Db8Error,
  errorFromBody,
  type OutdatedClientDetails,
  OutdatedClientError,
  socketError,
} from './errors.ts';
export { lines } from './lines.ts';
export { type ClientOptions, Db8Client } from './rest.ts';
export { exportText, issueRoomCert } from './room-extras.ts';
export { type CloseInfo, Connection, type ConnectionOptions, type Frame } from './socket/connection.ts';
export {
  type Dialect,
  type LiveOptions,
  LiveSocket,
  type LiveStatus,
  type Placement,
} from './socket/live.ts';
export {
  db8Dialect,
  type RoomEvent,
  RoomSocket,
  type RoomSocketOptions,
  type Subscribed,
  type TypedRoomEvent,
  type Welcome,
} from './socket/rooms.ts';
export { toWsUrl, type WebSocketCtor, type WebSocketLike } from './socket/websocket.ts';
export { type EventsOptions, parseSse, type SseEvent, sseEvents } from './sse.ts';
export { Db8Socket, DEFAULT_SOCKET_HISTORY, type SocketOptions } from './ws.ts';
