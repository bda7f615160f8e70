import { getSeat, getSession } from './session.ts';

// The app's query keys, in one place. Everything about one room sits under `room(id)`, so the room's
// live feed refreshes the room's reads with one invalidation; a module nests its own room-scoped
// reads there too (`[...webKeys.room(id), '<module>', …]`). The room's state is apart: the socket
// pushes it, and a REST read of it is only the fallback.

/** Whose view a read of the room returns: the seat this browser holds, else the person, else anyone. */
export function viewerOf(roomId: string): string {
  return getSeat(roomId)?.seat ?? getSession()?.principal ?? 'anonymous';
}

export const webKeys = {
  rooms: () => ['rooms'] as const,
  room: (roomId: string) => ['room', roomId] as const,
  roomInfo: (roomId: string) => ['room', roomId, 'info'] as const,
  roomState: (roomId: string, viewer: string) => ['room-state', roomId, viewer] as const,
  /** The journal checks a snapshot: the live feed does not refresh it. */
  journal: (roomId: string, from: number) => ['journal', roomId, from] as const,
  proof: (roomId: string, seq: number) => ['journal', roomId, 'proof', seq] as const,
  inspector: (roomId: string) => ['inspector', roomId] as const,
  serverKey: () => ['server-key'] as const,
  /** How people sign in on this server (its OIDC issuer, or none). */
  authProviders: () => ['auth-providers'] as const,
  /** Without a filter: every filter's list (what an End invalidates). */
  adminRooms: (filter?: string) => (filter ? ['admin-rooms', filter] : ['admin-rooms']),
  /** Agent profiles: who asks matters (an admin's include open rooms). */
  agents: (viewer: string) => ['agents', viewer] as const,
  agent: (id: string, viewer: string) => ['agents', viewer, id] as const,
};
