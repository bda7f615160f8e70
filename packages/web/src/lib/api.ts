import { Db8Client, Db8Error, PROTOCOL_VERSION } from '@db8/sdk';
import { endSession, getSeat, getSession } from './session.ts';

// REST through the SDK's typed client (every response parsed by the server's own zod schema). The
// credential differs per call: the seat session for a room this browser sits in, else the person's.

export const CLIENT_PROTOCOL_VERSION = PROTOCOL_VERSION;
export { Db8Error as ApiError };

const client = (token: string | null) =>
  new Db8Client({ baseUrl: location.origin, token, ...(token ? { fetch: watched(token) } : {}) });

/**
 * fetch for a call carrying `token`. A 401 to the person's session may be about something else (an
 * expired invitation answers 401 too), so the server is asked once whether the session itself still
 * holds (GET /v1/auth/me with plain fetch, never through here: no loop); if not, it is dropped and the
 * app shows the signed-out state with its notice (session.ts). One check per token at a time.
 */
function watched(token: string): typeof fetch {
  return async (input, init) => {
    const res = await globalThis.fetch(input, init);
    if (res.status === 401 && getSession()?.token === token) void checkSession(token);
    return res;
  };
}

const checking = new Map<string, Promise<void>>();
function checkSession(token: string): Promise<void> {
  let p = checking.get(token);
  if (!p) {
    p = globalThis
      .fetch(`${location.origin}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })
      .then(
        (r) => {
          if (r.status === 401) endSession(token);
        },
        () => {}, // unreachable server: the session may well hold; keep it
      )
      .finally(() => checking.delete(token));
    checking.set(token, p);
  }
  return p;
}

/** The token that reads `roomId`: the seat session when this browser holds a seat, else the person's. */
export function tokenFor(roomId: string): string | null {
  return getSeat(roomId)?.session_token ?? getSession()?.token ?? null;
}

/** The SDK client as the signed-in person, or with no credential: also for a module's own routes. */
export const personalClient = (): Db8Client => client(getSession()?.token ?? null);
export const anonClient = (): Db8Client => client(null);
/** The SDK client with the credential that reads and writes `roomId` (tokenFor). */
export const roomClient = (roomId: string): Db8Client => client(tokenFor(roomId));
const personal = personalClient;
const inRoom = roomClient;

export const api = {
  login: (token: string) => anonClient().adminLogin(token),
  /** How people sign in here (GET /v1/auth/providers). */
  providers: () => anonClient().authProviders(),
  /** Ends the person's session on the server (its token and refreshes stop working). */
  logout: () => personal().logout(),
  listRooms: () => personal().listRooms({ limit: 200 }),
  getRoom: (id: string) => inRoom(id).getRoom(id),
  createRoom: (body: {
    protocol: string;
    config: unknown;
    title?: string;
    drivers?: Record<string, unknown>;
  }) => personal().createRoom(body as Parameters<Db8Client['createRoom']>[0]),
  state: (id: string) => inRoom(id).state(id),
  entries: (id: string, fromSeq: number, limit: number) => inRoom(id).entries(id, { fromSeq, limit }),
  proof: (id: string, seq: number) => anonClient().proof(id, seq),
  adminRooms: (status: 'open' | 'closed' | 'all') => personal().adminRooms({ status, limit: 500 }),
  endRoom: (id: string, reason?: string) => personal().endRoom(id, reason ? { reason } : {}),
  invite: (id: string, seat?: string) => personal().createInvite(id, seat ? { seat } : {}),
  /** With an invite, joins as a guest or as the signed-in person; without, needs an agent/admin session. */
  join: (id: string, body: { seat?: string; invite?: string }) => personal().join(id, body),
  act: (
    id: string,
    body: {
      seat: string;
      action: unknown;
      turn_token?: string;
      client_nonce?: string;
      expected_seq?: number;
    },
  ) => inRoom(id).act(id, body as Parameters<Db8Client['act']>[1]),
};
