import type { SqlDriver } from '@db8/server/src/store/index.ts';
import type { StoreFactory, TestStore } from '@db8/server/test/store.helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readSchema,
  type SchemaReport,
  SEED_COLUMNS,
  SEED_INDEXES,
} from './deliberation-storage.seed-schema.ts';

/** Seed 004's three tables, column for column, on whichever driver the factory opens. */
export function seedSchemaContract(driver: string, factory: StoreFactory): void {
  describe(`deliberation tables match seed 004 (${driver})`, () => {
    let t: TestStore;
    let db: SqlDriver;
    let live: SchemaReport;
    beforeAll(async () => {
      t = await factory();
      db = t.store.db;
      live = await readSchema(db);
    });
    afterAll(() => t.cleanup());

    it('columns: names, order, types, lengths, precision, nullability, defaults', () => {
      for (const [table, cols] of Object.entries(SEED_COLUMNS)) expect(live.columns[table]).toEqual(cols);
    });

    it('indexes: exactly the seed’s, each with its method, keys and predicate', () => {
      expect(live.indexes.map((i) => i[0]).sort()).toEqual(SEED_INDEXES.map((i) => i[0]).sort());
      for (const [name, method, keys, pred] of SEED_INDEXES) {
        const got = live.indexes.find((i) => i[0] === name)!;
        expect([got[1], got[2]], name).toEqual([method, keys]);
        if (pred === null) expect(got[3], name).toBeNull();
        else for (const part of pred.split('|')) expect(got[3], name).toContain(part);
      }
    });

    it('constraints: primary keys, the two checks, the unique pair, cascades', () => {
      const c = (name: string) => live.constraints.find((x) => x[1] === name);
      for (const t of Object.keys(SEED_COLUMNS)) expect(c(`${t}_pkey`)?.[3]).toBe('PRIMARY KEY (id)');
      const status = c('chk_debate_sessions_status')!;
      expect(status[2]).toBe('c');
      for (const s of ['pending', 'running', 'paused', 'completed', 'failed', 'cancelled'])
        expect(status[3]).toContain(`'${s}'`);
      const phase = c('chk_debate_turns_phase')!;
      for (const p of [
        'dehallucination',
        'self_evolvement',
        'proposal',
        'critique',
        'review',
        'optimization',
        'adversarial',
        'convergence',
      ])
        expect(phase[3]).toContain(`'${p}'`);
      expect(c('uq_code_versions_session_version')?.[3]).toBe('UNIQUE (session_id, version_number)');
      const fks = live.constraints.filter((x) => x[2] === 'f').map((x) => [x[0], x[3]]);
      expect(fks.sort()).toEqual([
        ['code_versions', 'FOREIGN KEY (session_id) REFERENCES debate_sessions(id) ON DELETE CASCADE'],
        ['code_versions', 'FOREIGN KEY (turn_id) REFERENCES debate_turns(id) ON DELETE SET NULL'],
        ['debate_turns', 'FOREIGN KEY (session_id) REFERENCES debate_sessions(id) ON DELETE CASCADE'],
      ]);
      // Nothing beyond the seed's: PKs, two checks, one unique, three FKs (Postgres 18's NOT NULL entries aside).
      expect(live.constraints.length).toBe(3 + 2 + 1 + 3);
    });

    it('the updated_at trigger fires before every update, whatever the statement sets', async () => {
      expect(live.triggers).toHaveLength(1);
      expect(live.triggers[0]![2]).toMatch(/BEFORE UPDATE ON .*debate_sessions FOR EACH ROW/);
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO debate_sessions (debate_id, topic) VALUES ('room_t', 'a topic') RETURNING id`,
      );
      await db.query(
        `UPDATE debate_sessions SET updated_at = '2000-01-01T00:00:00Z', status = 'running' WHERE id = $1`,
        [row!.id],
      );
      const [after] = await db.query<{ old: boolean; status: string }>(
        `SELECT updated_at < '2001-01-01T00:00:00Z' AS old, status FROM debate_sessions WHERE id = $1`,
        [row!.id],
      );
      expect(after).toEqual({ old: false, status: 'running' });
      await db.query('DELETE FROM debate_sessions WHERE id = $1', [row!.id]);
    });

    it('checks refuse bad values; deletes cascade and set null as the seed says', async () => {
      const err = await db
        .query(`INSERT INTO debate_sessions (debate_id, topic, status) VALUES ('r', 't', 'bogus')`)
        .catch((e: { code?: string }) => e);
      expect((err as { code?: string }).code).toBe('23514');
      const [s] = await db.query<{ id: string }>(
        `INSERT INTO debate_sessions (debate_id, topic) VALUES ('room_c', 'cascade') RETURNING id`,
      );
      const bad = await db
        .query(
          `INSERT INTO debate_turns (session_id, round, phase, agent_id) VALUES ($1, 1, 'voting', 'a')`,
          [s!.id],
        )
        .catch((e: { code?: string }) => e);
      expect((bad as { code?: string }).code).toBe('23514');
      const [turn] = await db.query<{ id: string }>(
        `INSERT INTO debate_turns (session_id, round, phase, agent_id) VALUES ($1, 1, 'proposal', 'a') RETURNING id`,
        [s!.id],
      );
      await db.query(
        `INSERT INTO code_versions (session_id, turn_id, code, version_number) VALUES ($1, $2, 'x', 1)`,
        [s!.id, turn!.id],
      );
      const dup = await db
        .query(`INSERT INTO code_versions (session_id, code, version_number) VALUES ($1, 'y', 1)`, [s!.id])
        .catch((e: { code?: string }) => e);
      expect((dup as { code?: string }).code).toBe('23505');
      await db.query('DELETE FROM debate_turns WHERE id = $1', [turn!.id]);
      expect(await db.query('SELECT turn_id FROM code_versions WHERE session_id = $1', [s!.id])).toEqual([
        { turn_id: null },
      ]);
      await db.query('DELETE FROM debate_sessions WHERE id = $1', [s!.id]);
      expect(await db.query('SELECT id FROM code_versions WHERE session_id = $1', [s!.id])).toEqual([]);
    });
  });
}
