import { getSeat, getSession } from './session.ts';
import type { Ack, EntriesPage, JoinResult, Proof, Room, RoomState, Session } from './types.ts';

// A thin fetch client for the REST routes the pages use. Errors carry the server's stable code.

export const CLIENT_PROTOCOL_VERSION = '0.1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Init = { method?: string; body?: unknown; token?: string | null };

async function call<T>(path: string, init: Init = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const token = init.token === undefined ? (getSession()?.token ?? null) : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Non-JSON (e.g. a proxy error page) falls through to the status check below.
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    throw new ApiError(
      res.status,
      err?.code ?? `HTTP_${res.status}`,
      err?.message ?? res.statusText,
      err?.details,
    );
  }
  return json as T;
}

const room = (id: string) => `/v1/rooms/${encodeURIComponent(id)}`;

/** The token that reads `roomId`: the seat session when this browser holds a seat, else the person's. */
export function tokenFor(roomId: string): string | null {
  return getSeat(roomId)?.session_token ?? getSession()?.token ?? null;
}

export const api = {
  login: (token: string) => call<Session>('/v1/auth/login', { body: { token }, token: null }),
  listRooms: () => call<{ rooms: Room[] }>('/v1/rooms?limit=200'),
  getRoom: (id: string) => call<Room>(room(id), { token: tokenFor(id) }),
  createRoom: (body: { protocol: string; config: unknown; title?: string }) =>
    call<Room>('/v1/rooms', { body }),
  state: (id: string) => call<RoomState>(`${room(id)}/state`, { token: tokenFor(id) }),
  entries: (id: string, fromSeq: number, limit: number) =>
    call<EntriesPage>(`${room(id)}/entries?fromSeq=${fromSeq}&limit=${limit}`, { token: tokenFor(id) }),
  proof: (id: string, seq: number) => call<Proof>(`${room(id)}/entries/${seq}/proof`, { token: null }),
  join: (id: string, body: { seat?: string; invite?: string }) =>
    call<JoinResult>(`${room(id)}/join`, {
      body: { ...body, client_protocol_version: CLIENT_PROTOCOL_VERSION },
    }),
  act: (
    id: string,
    body: {
      seat: string;
      action: unknown;
      turn_token?: string;
      client_nonce?: string;
      expected_seq?: number;
    },
  ) => call<Ack>(`${room(id)}/actions`, { body, token: tokenFor(id) }),
};
