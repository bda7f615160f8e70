// A server-run deliberation tournament (issue 28): made over REST, played by the server itself, each
// match a real deliberation room whose entrants propose and whose house judge seat alone votes
// (app/src/arena-deliberation.ts); it closes with the standings `db8 arena run` gives for the same
// spec (packages/app/test/arena.deliberation.test.ts), and its exported bundles pass `db8 arena verify`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { readSpec } from '@db8/arena/cli/run.ts';
import { verifyArena } from '@db8/arena/cli/verify.ts';
import { readCouncilRequest } from '@db8/council/test/agent/council-responder.ts';
import type { Db8Client } from '@db8/sdk';
import { postgresDriver } from '@db8/server/src/store/index.ts';
import { PG_URL } from '@db8/server/test/store.helpers.ts';
import { describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-delib');
const EXAMPLE = join(import.meta.dirname, '../../../examples/arena-deliberation-round-robin.yaml');

/** Exports the tournament and every reported match as `db8 arena run` writes them, and verifies them. */
async function exportAndVerify(
  c: Db8Client,
  id: string,
  matches: { id: string; result: { room: string } | null }[],
  standings: unknown,
) {
  const dir = mkdtempSync(join(tmpdir(), 'db8-arena-delib-export-'));
  mkdirSync(join(dir, 'matches'));
  const text = async (room: string) => {
    let out = '';
    for await (const r of c.export(room)) out += `${JSON.stringify(r)}\n`;
    return out;
  };
  writeFileSync(join(dir, 'tournament.jsonl'), await text(id));
  for (const m of matches) writeFileSync(join(dir, 'matches', `${m.id}.jsonl`), await text(m.result!.room));
  writeFileSync(join(dir, 'standings.json'), JSON.stringify(standings));
  try {
    return await verifyArena(dir, arenaGames);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a server-run deliberation round robin', () => {
  it('closes with the order the house judge predicts, and its bundles verify', async () => {
    const { admin } = await servers.start({ DB8_ARENA_STEP_DELAY_MS: '0' });
    // The example spec as it stands, with runBy: server (its default).
    const config = await readSpec(EXAMPLE);
    expect(config.runBy).toBe('server');
    // (as JSON: the room's config travels as JSON)
    const t = await admin.createRoom({
      protocol: 'arena',
      title: config.name,
      config: JSON.parse(JSON.stringify(config)),
    });
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.matches).toHaveLength(12);
    for (const m of v.matches) {
      const room = await admin.getRoom(m.result!.room);
      expect(room.protocol).toBe('deliberation');
      expect(room.status).toBe('closed');
    }
    // thorough 0.95 > hedge 0.75 > partial 0.40 > bluff −0.475 under the judge's rule (docs/arena.md,
    // "Deliberation matches"): each wins every pairing with a worse one, and each win is the judge's
    // whole weight (10 × 0.5: 500 in hundredths).
    expect(v.standings.rows.map((r) => [r.entrant, r.wins, r.losses, r.score])).toEqual([
      ['thorough', 6, 0, 3000],
      ['hedger', 4, 2, 2000],
      ['partial', 2, 4, 1000],
      ['bluffer', 0, 6, 0],
    ]);
    // A match is not a consensus of its seats (one house ballot decides it): no match completes with
    // reachedConsensus, so the deliberation module keeps no lesson from scripted matches.
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const lessons = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM deliberation_lessons');
    await db.close();
    expect(lessons[0]!.n).toBe(0);
    const verdict = await exportAndVerify(admin, t.room_id, v.matches, v.standings);
    expect(verdict.problems).toEqual([]);
    expect(verdict.ok).toBe(true);
    await servers.stopLast();
  });

  it('plays a model proposer through its own provider: every call a driver_calls row of its match room', async () => {
    // The repository's mock model server (a real local HTTP server, not a real model) is the
    // server's configured `openai` provider; the model names every checklist point it is given,
    // sure of it (the judge's score 1, above thorough's 0.95).
    const mock = await ModelServer.start();
    mock.respond((rec) => {
      const r = readCouncilRequest(rec);
      if (r.schemaName === 'deliberation_plan')
        return {
          reply: { tasks: [{ id: 'own', description: 'mine', assignee: null, dependsOn: [], priority: 1 }] },
          usage: { input: 40, output: 5 },
        };
      const points = r.prompt
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.slice(2));
      return {
        reply: { content: `It handles ${points.join(', ')}.`, taskIds: [], confidence: 1, code: null },
        usage: { input: 60, output: 9 },
      };
    });
    try {
      const { admin } = await servers.start({
        DB8_ARENA_STEP_DELAY_MS: '0',
        OPENAI_BASE_URL: mock.openaiBaseUrl,
        OPENAI_API_KEY: 'sk-mock',
      });
      const config = await readSpec(EXAMPLE);
      config.entrants[3] = { name: 'a model', kind: 'model', provider: 'openai', model: 'mock-proposer' };
      config.name = 'model cup';
      config.format = { kind: 'round-robin', games: 1 };
      const t = await admin.createRoom({
        protocol: 'arena',
        title: config.name,
        config: JSON.parse(JSON.stringify(config)),
      });
      const v = await until(
        () => viewOf(admin, t.room_id),
        (x) => x.phase === 'closed',
      );
      expect(v.standings.rows.map((r) => [r.entrant, r.wins])).toEqual([
        ['a model', 3],
        ['thorough', 2],
        ['hedger', 1],
        ['partial', 0],
      ]);
      // Two calls (plan, proposal) in each of its three matches, each a row of that match room.
      const theirs = v.matches.filter((m) => m.entrants.includes('a model'));
      const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
      const calls = await db.query<{ room_id: string; seat: string; ok: boolean }>(
        'SELECT room_id, seat, ok FROM driver_calls WHERE room_id LIKE $1 ORDER BY room_id',
        [`${t.room_id}-%`],
      );
      await db.close();
      expect(calls).toHaveLength(6);
      for (const c of calls) {
        const m = theirs.find((x) => x.result!.room === c.room_id)!;
        expect(c).toMatchObject({ seat: `proposer_${m.entrants.indexOf('a model') + 1}`, ok: true });
      }
      const verdict = await exportAndVerify(admin, t.room_id, v.matches, v.standings);
      expect(verdict.problems).toEqual([]);
      expect(verdict.ok).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
