import { viewerOfClass } from '@db8/core';
import { type Delivery, enc, get, type ReadPath } from './probe.ts';

/** The core REST read paths (packages/server/src/routes): every one of them returns room data. */

const room = (id: string) => `/v1/rooms/${enc(id)}`;

/** A JSON body's field, when the status says it is there. */
function field(d: Delivery & { json: unknown }, key: string): unknown {
  return d.status === 200 && d.json && typeof d.json === 'object'
    ? (d.json as Record<string, unknown>)[key]
    : undefined;
}

export const restPaths: readonly ReadPath[] = [
  {
    covers: ['GET /v1/rooms'],
    probe: async (t) => [await get(t, '/v1/rooms?limit=200')],
  },
  {
    // The room monitor: seat holders of every room, the admin's alone (others get 401/403).
    covers: ['GET /v1/admin/rooms'],
    probe: async (t) => [await get(t, '/v1/admin/rooms?status=all&limit=500')],
  },
  {
    // Also its seats' `label`s (modules' seatLabelers): read here as every viewer at every
    // checkpoint, so a label naming a seat its protocol hides would show as a leak.
    covers: ['GET /v1/rooms/:id'],
    probe: async (t) => [await get(t, room(t.roomId), '/v1/rooms/:id')],
  },
  {
    covers: ['GET /v1/rooms/:id/state'],
    probe: async (t) => {
      const d = await get(t, `${room(t.roomId)}/state`, '/v1/rooms/:id/state');
      return [{ ...d, views: d.status === 200 ? [field(d, 'view')] : [] }];
    },
  },
  {
    covers: ['GET /v1/rooms/:id/entries'],
    probe: async (t) => {
      const d = await get(t, `${room(t.roomId)}/entries?fromSeq=0&limit=1000`, '/v1/rooms/:id/entries');
      const list = (field(d, 'entries') as unknown[] | undefined) ?? [];
      return [{ ...d, entries: { as: t.viewer.viewer, list } }];
    },
  },
  {
    covers: ['GET /v1/rooms/:id/entries/:seq/proof'],
    probe: async (t) => [
      await get(t, `${room(t.roomId)}/entries/${t.head}/proof`, '/v1/rooms/:id/entries/:seq/proof'),
    ],
  },
  {
    covers: ['GET /v1/rooms/:id/checkpoints'],
    probe: async (t) => [await get(t, `${room(t.roomId)}/checkpoints`, '/v1/rooms/:id/checkpoints')],
  },
  {
    covers: ['GET /v1/rooms/:id/skill.md'],
    probe: async (t) => [await get(t, `${room(t.roomId)}/skill.md`, '/v1/rooms/:id/skill.md')],
  },
  {
    covers: ['GET /v1/rooms/:id/drivers'],
    probe: async (t) => [await get(t, `${room(t.roomId)}/drivers`, '/v1/rooms/:id/drivers')],
  },
  {
    // The bundle as the token grants it, then as every other class: the public, the admin and a
    // seat not the viewer's (one the token does not cover must be refused: a 200 there is caught by
    // the entries' leak check; which seat it is does not change the route's decision).
    covers: ['GET /v1/rooms/:id/export'],
    probe: async (t) => {
      const out: Delivery[] = [];
      const v = t.viewer.viewer;
      const own = v.kind === 'seat' ? `seat:${v.seat}` : v.kind === 'admin' ? 'admin' : 'public';
      const other = t.seats.find((s) => `seat:${s}` !== own);
      const classes = ['', ...['public', 'admin', `seat:${other}`].filter((c) => c !== own)];
      for (const cls of classes) {
        const q = cls ? `?as=${enc(cls)}` : '';
        const d = await get(
          t,
          `${room(t.roomId)}/export${q}`,
          `/v1/rooms/:id/export${cls ? `?as=${cls}` : ''}`,
        );
        if (d.status !== 200) {
          out.push(d);
          continue;
        }
        const as = cls ? viewerOfClass(cls as 'public') : t.viewer.viewer;
        const list = d.text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as { type: string; entry?: object; sealed?: object })
          .filter((r) => r.type === 'entry')
          .map((r) => ({ ...r.entry, ...(r.sealed ? { sealed: r.sealed } : {}) }));
        out.push({ ...d, entries: { as, list }, bundle: d.text });
      }
      return out;
    },
  },
];
