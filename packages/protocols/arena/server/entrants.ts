import {
  type DriverIdentity,
  driverIdentity,
  ensureDriverPrincipal,
  linkRoom,
  type ModuleContext,
} from '@db8/server/kit';
import type { ArenaState, Entrant } from '../rules/index.ts';

/**
 * A tournament's entrants on their profiles (issue 28, "One identity"). A match seat is played by
 * the server (or the organizer's runner), never joined by the entrant, so the tournament room names
 * its entrants by a link instead (room_links): a model entrant is its model's own principal (one per
 * provider and model id, the same one its server-played calls are recorded for), a scripted entrant
 * the principal of its strategy. A person or an outside agent is named by a free-text entrant name
 * only — nothing says which principal it is — so it is not linked (docs/arena.md).
 */

/** The principal an entrant stands for, or null where the config does not say. */
export function entrantIdentity(e: Entrant): DriverIdentity | null {
  if (e.kind === 'model') return driverIdentity({ provider: e.provider, model: e.model });
  if (e.kind === 'scripted') return driverIdentity({ provider: 'scripted', persona: e.strategy });
  return null;
}

/** Links every entrant of one tournament to its principal (idempotent). */
export async function linkEntrants(ctx: ModuleContext, roomId: string, state: ArenaState): Promise<number> {
  const store = ctx.app.store;
  const now = ctx.runtime.now();
  let n = 0;
  for (const e of state.config.entrants) {
    const who = entrantIdentity(e);
    if (!who) continue;
    const principal = await ensureDriverPrincipal(store, who, now);
    await linkRoom(store, { roomId, principal, label: e.name, role: 'entrant', now });
    n++;
  }
  return n;
}

type Log = { warn(o: object, m: string): void };

/**
 * Links each new tournament as its genesis passes on the bus, and at start every tournament made
 * before (a link written twice is a no-op, so every process of a cluster may do it).
 */
export function entrantLinker(ctx: ModuleContext, log: Log): { start(): void; stop(): void } {
  let unsubscribe: (() => void) | null = null;
  const link = (roomId: string) =>
    ctx.runtime
      .protocolState(roomId)
      .then(({ state }) => linkEntrants(ctx, roomId, state as ArenaState))
      .catch((err) => log.warn({ err, roomId }, 'arena: entrants not linked to their profiles'));
  return {
    start() {
      unsubscribe = ctx.app.bus.subscribe('*', (e) => {
        if (e.seq === 0 && (e.payload as { protocol?: unknown } | undefined)?.protocol === 'arena')
          void link(e.room);
      });
      void (async () => {
        let cursor: string | undefined;
        do {
          const page = await ctx.app.store.rooms.list({
            protocol: 'arena',
            limit: 500,
            ...(cursor ? { cursor } : {}),
          });
          // A tournament linked before is skipped: its entrants never change (the config is fixed).
          const done = await ctx.app.store.db.query<{ room_id: string }>(
            'SELECT DISTINCT room_id FROM room_links WHERE room_id = ANY($1::text[])',
            [page.rooms.map((r) => r.id)],
          );
          const linked = new Set(done.map((d) => d.room_id));
          for (const r of page.rooms) if (!linked.has(r.id)) await link(r.id);
          cursor = page.nextCursor ?? undefined;
        } while (cursor && unsubscribe);
      })().catch((err) => log.warn({ err }, 'arena: scan for entrants to link failed'));
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}
