import { type Delivery, enc, get, type ReadPath } from './probe.ts';

/**
 * The protocol modules' own read routes (packages/protocols/<name>/server): each read as every
 * viewer for rooms of its own protocol, and as the admin for every other room (`only`).
 */

type Target = Parameters<ReadPath['probe']>[0];
const one = (only: string, url: (t: Target) => string, name: string): ReadPath => ({
  covers: [`GET ${name}`],
  only,
  probe: async (t: Target) => [await get(t, url(t), name)],
});

export const modulePaths: readonly ReadPath[] = [
  // council
  one(
    'council',
    (t) => `/v1/rooms/${enc(t.roomId)}/council/packet.json`,
    '/v1/rooms/:id/council/packet.json',
  ),
  one('council', (t) => `/v1/rooms/${enc(t.roomId)}/council/packet.md`, '/v1/rooms/:id/council/packet.md'),
  // deliberation (upstream-shaped REST)
  one('deliberation', () => '/v1/debates?limit=500', '/v1/debates'),
  one('deliberation', (t) => `/v1/debates/${enc(t.roomId)}`, '/v1/debates/:id'),
  one('deliberation', (t) => `/v1/debates/${enc(t.roomId)}/status`, '/v1/debates/:id/status'),
  one('deliberation', (t) => `/v1/debates/${enc(t.roomId)}/results`, '/v1/debates/:id/results'),
  one('deliberation', (t) => `/v1/debates/${enc(t.roomId)}/gates`, '/v1/debates/:id/gates'),
  one('deliberation', (t) => `/v1/debates/${enc(t.roomId)}/audit`, '/v1/debates/:id/audit'),
  // deliberation storage projection
  one('deliberation', () => '/v1/deliberation/history?limit=200', '/v1/deliberation/history'),
  one('deliberation', () => '/v1/deliberation/statistics', '/v1/deliberation/statistics'),
  {
    covers: ['GET /v1/deliberation/lessons', 'GET /v1/deliberation/lessons/:id'],
    only: 'deliberation',
    probe: async (t) => {
      const list = await get(t, '/v1/deliberation/lessons?limit=100', '/v1/deliberation/lessons');
      // The ids as the admin lists them, each read as this viewer (a read counts a view).
      const all = await get(
        { ...t, viewer: { ...t.viewer, token: t.admin } },
        '/v1/deliberation/lessons?limit=100',
      );
      const hits = ((all.json as { hits?: Array<{ lesson: { id: string } }> } | null)?.hits ?? []).slice(
        0,
        5,
      );
      const each: Delivery[] = [];
      for (const hit of hits)
        each.push(
          await get(t, `/v1/deliberation/lessons/${enc(hit.lesson.id)}`, '/v1/deliberation/lessons/:id'),
        );
      return [list, ...each];
    },
  },
  // poker (seed 002's table control plane)
  one('poker', () => '/v1/tables', '/v1/tables'),
  one('poker', (t) => `/v1/tables/${enc(t.roomId)}`, '/v1/tables/:id'),
  one('poker', () => '/v1/admin/tables', '/v1/admin/tables'),
  one('poker', () => '/v1/admin/agents', '/v1/admin/agents'),
  {
    covers: ['GET /v1/admin/tables/:id/events'],
    only: 'poker',
    probe: async (t) => {
      const d = await get(
        t,
        `/v1/admin/tables/${enc(t.roomId)}/events?fromSeq=0&limit=1000`,
        '/v1/admin/tables/:id/events',
      );
      const list = d.status === 200 ? ((d.json as { events: unknown[] }).events ?? []) : [];
      return [{ ...d, entries: { as: { kind: 'admin' }, list } }];
    },
  },
  {
    covers: ['GET /v1/admin/tables/:id/export'],
    only: 'poker',
    probe: async (t) => [
      await get(t, `/v1/admin/tables/${enc(t.roomId)}/export`, '/v1/admin/tables/:id/export'),
      await get(
        t,
        `/v1/admin/tables/${enc(t.roomId)}/export?format=phh`,
        '/v1/admin/tables/:id/export?format=phh',
      ),
    ],
  },
  // arena (the caller's own pending matches: only the entrants it claimed)
  one('arena', () => '/v1/arena/matches', '/v1/arena/matches'),
  // arena (who claimed each outside entrant, by name: the tournament's creator and admins only)
  one(
    'arena',
    (t) => `/v1/arena/tournaments/${enc(t.roomId)}/entrants`,
    '/v1/arena/tournaments/:id/entrants',
  ),
  // question (swarm)
  one('question', () => '/v1/swarm/node', '/v1/swarm/node'),
  one('question', () => '/v1/swarm/questions?status=all&limit=500', '/v1/swarm/questions'),
  one('question', (t) => `/v1/swarm/questions/${enc(t.questionId)}`, '/v1/swarm/questions/:qid'),
  one(
    'question',
    (t) => `/v1/swarm/questions/${enc(t.questionId)}/metadata`,
    '/v1/swarm/questions/:qid/metadata',
  ),
  one('question', () => '/v1/swarm/model-calls', '/v1/swarm/model-calls'),
  // debate (refused submissions, sealed to their author and admins, listed for the moderator)
  one('debate', (t) => `/v1/debate/rooms/${enc(t.roomId)}/dead-letters`, '/v1/debate/rooms/:id/dead-letters'),
  // debate (the research cache: the room's participants', everyone's once the room closes)
  one('debate', (t) => `/v1/debate/rooms/${enc(t.roomId)}/research`, '/v1/debate/rooms/:id/research'),
  // debate (ratings of closed debates, and the names behind identities)
  {
    covers: ['GET /v1/ratings', 'GET /v1/ratings/:identity', 'GET /v1/identities'],
    only: 'debate',
    probe: async (t) => {
      const out = [await get(t, '/v1/ratings?scripted=include', '/v1/ratings')];
      // Each identity is asked for by name: the answer may echo it, and nothing else.
      for (const p of t.principals)
        out.push({
          ...(await get(t, `/v1/ratings/${enc(p)}?scripted=include`, '/v1/ratings/:identity')),
          echo: [p],
        });
      const ids = await get(t, `/v1/identities?ids=${enc(t.principals.join(','))}`, '/v1/identities');
      out.push({ ...ids, echo: t.principals });
      return out;
    },
  },
];
