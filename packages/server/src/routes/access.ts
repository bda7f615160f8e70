import type { Viewer } from '@db8/core';
import type { AuthContext } from '../auth/types.ts';
import { ApiError } from '../errors.ts';
import type { AppContext } from './context.ts';

/**
 * What `auth` may see in `roomId`: a token scoped to this room's seat that seat (an admin who took a
 * seat plays it like anyone else there: its view, legal actions and turn token); otherwise admin
 * everything; an unscoped agent or person the seat it holds there (if any); everyone else the public view.
 */
export async function viewerIn(
  ctx: { store: Pick<AppContext['store'], 'rooms'> },
  auth: AuthContext | null,
  roomId: string,
): Promise<Viewer> {
  if (!auth) return { kind: 'observer' };
  if (auth.room === roomId && auth.seat) return { kind: 'seat', seat: auth.seat };
  if (auth.role === 'admin') return { kind: 'admin' };
  if (auth.room !== null) {
    return auth.room === roomId && auth.seat ? { kind: 'seat', seat: auth.seat } : { kind: 'observer' };
  }
  const seat = await ctx.store.rooms.seatOf(auth.principal, roomId);
  return seat ? { kind: 'seat', seat } : { kind: 'observer' };
}

/**
 * May `auth` act for `seat` in `roomId`? Returns the principal to hand the runtime (which checks
 * that it holds the seat), or undefined for certificate sessions, where the room CA vouches.
 */
export function actorFor(auth: AuthContext | null, roomId: string, seat: string): string | undefined {
  if (!auth) throw new ApiError(401, 'UNAUTHORIZED', 'acting needs a session token');
  if (auth.room !== null && auth.room !== roomId) {
    throw new ApiError(403, 'FORBIDDEN', 'this token is scoped to another room');
  }
  if (auth.seat !== null && auth.seat !== seat) {
    throw new ApiError(403, 'SEAT_NOT_HELD', `this token is for seat ${auth.seat}, not ${seat}`);
  }
  if (auth.certified) return undefined;
  return auth.principal;
}
