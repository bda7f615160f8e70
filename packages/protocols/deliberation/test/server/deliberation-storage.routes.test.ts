import { ApiError, toHttpError } from '@db8/server/src/errors.ts';
import { plainSerializerCompiler, zodValidatorCompiler } from '@db8/server/src/routes/zod.ts';
import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { migrate } from '@db8/server/src/store/migrate.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliberationModule } from '../../server/index.ts';
import { deliberationStorageRoutes, projectSession } from '../../server/storage/index.ts';
import { newRoom, playProjected, T0 } from './deliberation-storage.helpers.ts';

// The routes as the module mounts them: the app's zod validator and error mapping, a stub guard.
describe('deliberation storage routes', () => {
  let store: Store;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await openStore({ memory: true });
    await migrate(store.db, deliberationModule.migrations ?? []);
    await migrate(store.db, deliberationModule.migrations ?? []);
    // Projected once at the end (the entry-by-entry path is deliberation-storage.test.ts's).
    const room = newRoom('delib_routes_1');
    await playProjected(room, null);
    await projectSession(store.db, { roomId: room.id, state: room.state, completedAt: room.lastTs });
    app = Fastify();
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setSerializerCompiler(plainSerializerCompiler);
    app.setErrorHandler((err, _req, reply) => {
      const { status, body } = toHttpError(err);
      return reply.code(status).send(body);
    });
    deliberationStorageRoutes(app, {
      db: store.db,
      now: () => T0 + 1000,
      authorize: (req, access) => {
        if (access === 'write' && req.headers['x-role'] !== 'admin')
          throw new ApiError(403, 'FORBIDDEN', 'admins only');
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('searches and lists lessons', async () => {
    const r = await get('/v1/deliberation/lessons?q=token%20bucket&limit=5');
    expect(r.statusCode).toBe(200);
    const hits = r.json().hits as { lesson: { id: string; tier: string }; highlights: unknown[] }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.lesson.tier).toBe('bronze');
    const list = await get('/v1/deliberation/lessons?category=debugging');
    expect(
      list.json().hits.every((h: { lesson: { category: string } }) => h.lesson.category === 'debugging'),
    ).toBe(true);
    const one = await get(`/v1/deliberation/lessons/${hits[0]!.lesson.id}`);
    expect(one.json().lesson.uses.views).toBe(1);
  });

  it('client mistakes are 4xx with a body, never 500', async () => {
    for (const url of [
      '/v1/deliberation/lessons?minScore=2',
      '/v1/deliberation/lessons?tier=diamond',
      '/v1/deliberation/lessons?bogus=1',
      '/v1/deliberation/lessons?q=',
      '/v1/deliberation/lessons/not-a-uuid',
      '/v1/deliberation/history?limit=0',
      '/v1/deliberation/history?cursor=nope',
      '/v1/deliberation/statistics?from=yesterday',
      '/v1/deliberation/statistics?success=maybe',
    ]) {
      const r = await get(url);
      expect([r.statusCode, url]).toEqual([400, url]);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    const missing = await get('/v1/deliberation/lessons/00000000-0000-4000-8000-000000000000');
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'LESSON_NOT_FOUND']);
    // websearch_to_tsquery accepts any text: operators alone are no error.
    expect((await get('/v1/deliberation/lessons?q=%22%20OR%20-%20%7C%20!')).statusCode).toBe(200);
  });

  it('records uses only when authorised, and validates the body', async () => {
    const [hit] = (await get('/v1/deliberation/lessons?q=token')).json().hits;
    const url = `/v1/deliberation/lessons/${hit.lesson.id}/uses`;
    const denied = await app.inject({ method: 'POST', url, payload: { success: true } });
    expect(denied.statusCode).toBe(403);
    const bad = await app.inject({
      method: 'POST',
      url,
      headers: { 'x-role': 'admin' },
      payload: { success: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const ok = await app.inject({
      method: 'POST',
      url,
      headers: { 'x-role': 'admin' },
      payload: { success: true },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().lesson.uses).toMatchObject({ applied: 1, succeeded: 1 });
  });

  it('history pages with a cursor; statistics answer with the filter', async () => {
    const h = await get('/v1/deliberation/history?limit=1&status=completed');
    expect(h.statusCode).toBe(200);
    expect(h.json().sessions.map((s: { roomId: string }) => s.roomId)).toEqual(['delib_routes_1']);
    const next = await get(
      `/v1/deliberation/history?limit=1&cursor=${encodeURIComponent(h.json().next_cursor)}`,
    );
    expect(next.json()).toEqual({ sessions: [], next_cursor: null });
    const st = await get('/v1/deliberation/statistics?topology=graph_mesh&success=true');
    expect(st.statusCode).toBe(200);
    expect(st.json().sessions.total).toBe(1);
    expect((await get('/v1/deliberation/statistics?topology=star')).json().sessions.total).toBe(0);
  });
});
