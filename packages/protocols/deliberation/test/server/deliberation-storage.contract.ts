import type { SqlDriver } from '@db8/server/src/store/index.ts';
import type { StoreFactory, TestStore } from '@db8/server/test/store.helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  projectSession,
  purgeExpiredLessons,
  RebuildError,
  rebuildFromLog,
  recordLessonUse,
  searchLessons,
  sessionHistory,
  sessionUuid,
  statistics,
} from '../../server/storage/index.ts';
import { type DelibRoom, newRoom, playProjected, snapshotRows, T0 } from './deliberation-storage.helpers.ts';

const DAY = 86_400_000;

/** Projection, rebuild, lessons and statistics on whichever driver the factory opens. */
export function projectionContract(driver: string, factory: StoreFactory): void {
  describe(`deliberation projection, lessons and statistics (${driver})`, () => {
    let t: TestStore;
    let db: SqlDriver;
    let room: DelibRoom;
    let incremental: unknown[];
    beforeAll(async () => {
      t = await factory();
      db = t.store.db;
      room = newRoom('delib_store_1');
      await playProjected(room, db);
      incremental = await snapshotRows(db);
    });
    afterAll(() => t.cleanup());

    it('entry by entry, the session, its turns and code versions follow the room', async () => {
      const s = room.state;
      expect(s.status).toBe('completed');
      const [session] = await db.query<Record<string, unknown>>(
        `SELECT id::text, debate_id, status, topology_type, coordination_protocol, initiated_by, total_rounds,
                final_consensus_score::float8 AS score, (extract(epoch from created_at) * 1000)::float8 AS created,
                (extract(epoch from completed_at) * 1000)::float8 AS completed, outcome->>'winner' AS winner
         FROM debate_sessions`,
      );
      expect(session).toEqual({
        id: sessionUuid('delib_store_1'),
        debate_id: 'delib_store_1',
        status: 'completed',
        topology_type: 'graph_mesh',
        coordination_protocol: 'adaptive',
        initiated_by: 'tester',
        total_rounds: s.rounds.length,
        score: Number(s.outcome!.confidence.toFixed(4)),
        created: T0,
        // The entry whose fold ended the session (the close entry comes after it).
        completed: room.entries.at(-2)!.ts,
        winner: s.outcome!.winner,
      });
      // JSON went in as JSON, not as a JSON string (postgres.js would stringify a jsonb parameter).
      expect(
        await db.query(
          `SELECT jsonb_typeof(config) AS c, jsonb_typeof(outcome) AS o, jsonb_typeof(metadata) AS m FROM debate_sessions`,
        ),
      ).toEqual([{ c: 'object', o: 'object', m: 'object' }]);
      const turns = await db.query<{ n: number; failed: number; latency: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE metadata->>'type' = 'failed')::int AS failed,
                count(response_time_ms)::int AS latency FROM debate_turns`,
      );
      expect(turns[0]).toEqual({ n: s.turns.length, failed: 0, latency: s.turns.length });
      const versions = await db.query<Record<string, unknown>>(
        `SELECT version_number, quality_score::float8 AS q, test_pass_rate::float8 AS p, turn_id IS NOT NULL AS linked,
                diff_from_previous IS NULL AS first FROM code_versions ORDER BY version_number`,
      );
      expect(versions.length).toBe(s.codeVersions.length);
      expect(versions.length).toBeGreaterThan(1);
      expect(versions[0]).toEqual({ version_number: 1, q: 0.7, p: 0.5, linked: true, first: true });
      expect(versions[1]).toMatchObject({ q: null, p: null, linked: true, first: false });
      const reflections = await db.query(`SELECT id FROM debate_turns WHERE reflections != '[]'::jsonb`);
      expect(reflections.length).toBe(s.turns.filter((x) => x.action.type === 'propose').length);
    });

    it('re-projecting the same state writes nothing (updated_at stays)', async () => {
      const before = await db.query('SELECT updated_at::text FROM debate_sessions');
      await projectSession(db, { roomId: 'delib_store_1', state: room.state, initiatedBy: 'tester' });
      expect(await snapshotRows(db)).toEqual(incremental);
      expect(await db.query('SELECT updated_at::text FROM debate_sessions')).toEqual(before);
    });

    it('wiped and rebuilt from the log, every row comes back the same', async () => {
      await db.query('DELETE FROM debate_sessions');
      expect(await db.query('SELECT id FROM debate_turns')).toEqual([]);
      // Lessons outlive their session row (unlinked), then relink on rebuild.
      expect(
        await db.query('SELECT session_id FROM deliberation_lessons WHERE session_id IS NOT NULL'),
      ).toEqual([]);
      await rebuildFromLog(db, room.entries, { initiatedBy: 'tester' });
      expect(await snapshotRows(db)).toEqual(incremental);
      // A second rebuild inside the room's own life is the same again.
      await rebuildFromLog(db, room.entries, { initiatedBy: 'tester' });
      expect(await snapshotRows(db)).toEqual(incremental);
    });

    it('an open room rebuilds only with its seed; a broken log is refused', async () => {
      const open = newRoom('delib_store_open');
      open.must('ana', { type: 'forfeit', reason: 'leaving early' }, T0 + 1000);
      await expect(rebuildFromLog(db, open.entries)).rejects.toBeInstanceOf(RebuildError);
      const r = await rebuildFromLog(db, open.entries, { seed: 'ab'.repeat(32) });
      expect(r.turns).toBe(0);
      const tampered = room.entries.map((e) => (e.seq === 3 ? { ...e, seq: 99 } : e));
      await expect(rebuildFromLog(db, tampered)).rejects.toBeInstanceOf(RebuildError);
      await db.query('DELETE FROM debate_sessions WHERE debate_id = $1', ['delib_store_open']);
    });

    it('lessons: the consensus, each patched finding and each reflexion entry', async () => {
      const rows = await db.query<{ source: string; category: string; tier: number; n: number }>(
        `SELECT source, category, tier, count(*)::int AS n FROM deliberation_lessons GROUP BY 1, 2, 3 ORDER BY 1`,
      );
      const proposals = room.state.turns.filter((x) => x.action.type === 'propose').length;
      expect(rows).toEqual([
        { source: 'adversarial', category: 'security', tier: 0, n: expect.any(Number) },
        { source: 'consensus', category: 'pattern', tier: 0, n: 1 },
        { source: 'reflection', category: 'debugging', tier: 0, n: proposals },
      ]);
    });

    it('full-text search: websearch syntax, ranked, highlighted, filtered', async () => {
      const now = T0 + DAY;
      const hits = await searchLessons(db, { q: 'token bucket', now });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0]!.lesson.source).toBe('consensus'); // the words are in its title
      expect(hits.map((h) => h.rank)).toEqual([...hits.map((h) => h.rank)].sort((a, b) => b - a));
      expect(hits[0]!.highlights.filter((p) => p.hit).map((p) => p.text.toLowerCase())).toContain('token');
      expect(hits[0]!.snippet).not.toMatch(/[\uE000\uE001]/);
      const clamps = await searchLessons(db, { q: 'clamp capacity', now });
      expect(new Set(clamps.map((h) => h.lesson.source))).toEqual(new Set(['reflection']));
      expect(await searchLessons(db, { q: 'clamp -capacity', now })).toEqual([]);
      expect(await searchLessons(db, { q: '"capacity clamp"', now })).toEqual([]);
      expect((await searchLessons(db, { q: '"clamp tokens"', now })).length).toBe(clamps.length);
      const sec = await searchLessons(db, { q: 'token OR clamp OR finding', category: 'security', now });
      expect(sec.every((h) => h.lesson.category === 'security')).toBe(true);
      expect(await searchLessons(db, { q: 'token', domain: 'medicine', now })).toEqual([]);
      expect(await searchLessons(db, { q: 'token', minTier: 'silver', now })).toEqual([]);
      expect(await searchLessons(db, { q: 'clamp', minScore: 0.81, now })).toEqual([]);
      expect(await searchLessons(db, { q: 'zeppelin', now })).toEqual([]);
    });

    it('uses promote a lesson by tier; failures hold it back; success extends its life', async () => {
      const [l] = await searchLessons(db, { q: 'token bucket', now: T0 });
      const id = l!.lesson.id;
      let out = l!.lesson;
      for (let i = 0; i < 4; i++) out = (await recordLessonUse(db, id, { success: true, now: T0 + 1000 }))!;
      expect(out.tier).toBe('bronze');
      out = (await recordLessonUse(db, id, { success: true, now: T0 + 2 * DAY }))!;
      expect(out).toMatchObject({ tier: 'silver', uses: { applied: 5, succeeded: 5, failed: 0 } });
      expect(out.expiresAt).toBe(T0 + 92 * DAY);
      for (let i = 0; i < 5; i++)
        out = (await recordLessonUse(db, id, { success: i < 2, now: T0 + 3 * DAY }))!;
      expect(out).toMatchObject({ tier: 'silver', uses: { applied: 10, succeeded: 7, failed: 3 } });
      expect(
        (await searchLessons(db, { q: 'token', tier: 'silver', now: T0 })).map((h) => h.lesson.id),
      ).toEqual([id]);
      expect(
        await recordLessonUse(db, '00000000-0000-4000-8000-000000000000', { success: true, now: T0 }),
      ).toBeNull();
    });

    it('expired lessons leave search and are purged', async () => {
      const later = T0 + 91 * DAY; // reflections expire at 90 days; the used consensus lesson lives on
      const live = await searchLessons(db, { q: 'clamp', now: later });
      expect(live).toEqual([]);
      expect(
        (await searchLessons(db, { q: 'clamp', now: later, includeExpired: true })).length,
      ).toBeGreaterThan(0);
      const purged = await purgeExpiredLessons(db, later);
      expect(purged).toBeGreaterThan(0);
      expect((await searchLessons(db, { q: 'token bucket', now: later })).length).toBe(1);
    });

    it('history and statistics come from SQL over the projection', async () => {
      const second = newRoom('delib_store_2', { topology: 'chain', earlyStop: true });
      await playProjected(second, db);
      const all = await sessionHistory(db, {});
      expect(all.map((h) => h.roomId).sort()).toEqual(['delib_store_1', 'delib_store_2']);
      expect((await sessionHistory(db, { topology: 'chain' })).map((h) => h.roomId)).toEqual([
        'delib_store_2',
      ]);
      const ok = (await sessionHistory(db, { success: true })).map((h) => h.roomId);
      const notOk = (await sessionHistory(db, { success: false })).map((h) => h.roomId);
      expect([...ok, ...notOk].sort()).toEqual(['delib_store_1', 'delib_store_2']);
      const page = await sessionHistory(db, { limit: 1 });
      const rest = await sessionHistory(db, { before: { createdAt: page[0]!.createdAt, id: page[0]!.id } });
      expect([...page, ...rest].map((h) => h.id)).toEqual(all.map((h) => h.id));

      const st = await statistics(db);
      const states = [room.state, second.state];
      const turns = states.flatMap((s) => s.turns);
      expect(st.sessions).toEqual({ total: 2, byStatus: { completed: 2 }, byDomain: { code: 2 } });
      expect(st.successRate).toBe(ok.length / 2);
      expect(st.turns).toEqual({ total: turns.length, failed: 0 });
      expect(st.codeVersions).toBe(states.reduce((n, s) => n + s.codeVersions.length, 0));
      const rounds = states.flatMap((s) => s.rounds);
      expect(st.consensusByRound.map((r) => r.round)).toEqual(
        [...new Set(rounds.map((r) => r.round))].sort(),
      );
      expect(st.consensusByRound.reduce((n, r) => n + r.sessions, 0)).toBe(rounds.length);
      const r1 = rounds.filter((r) => r.round === 1).map((r) => Number(r.confidence));
      expect(st.consensusByRound[0]!.meanConsensus).toBeCloseTo(r1.reduce((a, b) => a + b, 0) / r1.length, 9);
      expect(st.roles.find((r) => r.role === 'architect')).toMatchObject({
        turns: turns.filter((x) => x.seat === 'ana').length,
        sessions: 2,
      });
      const openai = turns.filter((x) => x.action.call?.provider === 'openai');
      const p = st.providers.find((x) => x.provider === 'openai')!;
      expect(p.turns).toBe(openai.length);
      expect(p.costUsd).toBeCloseTo(openai.length * 0.001, 9);
      expect(p.inputTokens).toBe(openai.length * 200);
      expect(p.meanLatencyMs).toBeCloseTo(
        openai.reduce((n, x) => n + x.action.call!.latencyMs, 0) / openai.length,
        9,
      );
      expect(p.p50LatencyMs).toBeGreaterThanOrEqual(100);
      expect(p.p95LatencyMs).toBeLessThanOrEqual(106);
      expect(st.lessons.total).toBeGreaterThan(0);
      expect(st.lessons.byTier.silver).toBe(1);
      expect(st.lessons.successRate).toBeCloseTo(7 / 10, 9);
      const chainOnly = await statistics(db, { topology: 'chain' });
      expect(chainOnly.sessions.total).toBe(1);
      expect(chainOnly.turns.total).toBe(second.state.turns.length);
    });
  });
}
