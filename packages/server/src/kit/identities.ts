import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';

/**
 * Principals that stand for what plays without a login (issue 28, "One identity"): a driver's own
 * principal, and the links by which a room names a principal it does not seat. One copy for the
 * driver host (a driven seat's holder), the arena (a tournament's model and scripted entrants) and
 * the swarm (the author of an answer this node signed for a principal).
 */

export interface DriverIdentity {
  id: string;
  name: string;
  meta: Record<string, unknown>;
}

/**
 * The principal of a driver: one per (provider, model, persona, seat), so a record carries over
 * from room to room. No seat (an arena entrant: it plays whichever seat a match gives it) makes the
 * identity of the model itself, named by its model id (`scripted · <persona>` for a scripted one).
 */
export function driverIdentity(spec: {
  provider: string;
  model?: string | null;
  persona?: string | null;
  seat?: string | null;
}): DriverIdentity {
  const key = [spec.provider, spec.model ?? '', spec.persona ?? '', spec.seat ?? ''].join('\u0000');
  const id = `drv_${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
  const scripted = spec.provider === 'scripted';
  const who = scripted
    ? spec.seat
      ? 'scripted'
      : `scripted · ${spec.persona ?? 'cast'}`
    : (spec.model ?? spec.provider);
  return {
    id,
    name: spec.seat ? `${who} · ${spec.seat}` : who,
    // The model id too, so a profile says which model plays (routes/agents.ts).
    meta: {
      driver: spec.provider,
      ...(spec.model ? { model: spec.model } : {}),
      ...(scripted ? { scripted: true } : {}),
    },
  };
}

/** Creates the driver's principal unless it exists (another process or room may make it first). */
export async function ensureDriverPrincipal(store: Store, who: DriverIdentity, now: number): Promise<string> {
  if (await store.principals.get(who.id)) return who.id;
  await store.principals
    .create({ id: who.id, kind: 'agent', displayName: who.name, meta: who.meta, createdAt: now })
    .catch(async (err) => {
      if (!(await store.principals.get(who.id))) throw err;
    });
  return who.id;
}

/**
 * Records that `roomId` names `principal` as `label` in `role` without a seat (room_links). Profiles
 * count a linked room like a held seat, under the same rule: until the room closes, only an admin
 * sees the link. Writing the same link twice is a no-op.
 */
export async function linkRoom(
  store: Store,
  link: { roomId: string; principal: string; label: string; role: string; now: number },
): Promise<void> {
  await store.db.query(
    `INSERT INTO room_links (room_id, principal_id, label, role, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [link.roomId, link.principal, link.label, link.role, link.now],
  );
}
