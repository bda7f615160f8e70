import { enc, get, type ReadPath } from './probe.ts';

/**
 * Agent profiles (GET /v1/agents, GET /v1/agents/:id): every principal holding a seat of the room is
 * asked for as every viewer. A seat's holder is sealed until the room closes (a debate unmasks its
 * seats in its close entry), so before that no other viewer may get a profile or a list row naming
 * the principal — the kit's principal secrets catch either. The id is not passed as `echo`: a 404
 * must not repeat it, and a profile served early names it and is caught.
 */
export const agentPaths: readonly ReadPath[] = [
  {
    covers: ['GET /v1/agents', 'GET /v1/agents/:id'],
    probe: async (t) => {
      const out = [await get(t, '/v1/agents?limit=500', '/v1/agents')];
      for (const p of t.principals) out.push(await get(t, `/v1/agents/${enc(p)}`, '/v1/agents/:id'));
      return out;
    },
  },
];
