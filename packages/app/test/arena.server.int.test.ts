// Server-run tournaments (issue 28): a tournament made over REST is played by the server itself, each
// match in a real room; a server stopped mid-tournament is replaced by a new one on the same
// Postgres, which finishes it from the log with no match lost or doubled; the exported bundles pass
// `db8 arena verify`. On a cluster: processes share the matches (⌈concurrency / nodes⌉ slots each),
// and one stopped or killed mid-match leaves them to the other. Stops and kills land where a test's
// hold (arena-holds.ts) keeps a match, not in a race with it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import type { ArenaView } from '@db8/arena';
import { verifyArena } from '@db8/arena/cli/verify.ts';
import { Db8Client } from '@db8/sdk';
import type { ProtocolModule } from '@db8/server/kit';
import { postgresDriver } from '@db8/server/src/store/index.ts';
import { PG_URL } from '@db8/server/test/store.helpers.ts';
import { describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';
import { Holds, modulesPacedBy } from './arena-holds.ts';
import { arenaServers, until, viewOf } from './arena-servers.ts';

// One data dir for every server: the same server key, as the nodes of a cluster share one.
const servers = arenaServers('arena-srv');

/**
 * A server on the test schema; `stepDelayMs` slows each match write so a match is seen in play;
 * `modules` with a test's holds (arena-holds.ts) holds a match at a chosen write.
 */
const server = (
  stepDelayMs = 0,
  env: Record<string, string> = {},
  opts: { natsUrl?: string; modules?: ProtocolModule[] } = {},
) => servers.start({ DB8_ARENA_STEP_DELAY_MS: String(stepDelayMs), ...env }, opts);

const cup = (name: string) => ({
  protocol: 'arena',
  title: name,
  config: {
    name,
    game: 'sealed-bid',
    format: { kind: 'round-robin', games: 2 },
    entrants: [
      { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
      { name: 'shader', kind: 'scripted', strategy: 'shade' },
      { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
      { name: 'truthful too', kind: 'scripted', strategy: 'truthful' },
    ],
    seed: name,
    concurrency: 2,
    bootstrap: 20,
  },
});

/** Polls the tournament until `done` holds. */
const untilView = (c: Db8Client, id: string, done: (v: ArenaView) => boolean) =>
  until(() => viewOf(c, id), done);

/** Exports the tournament and every reported match as `db8 arena run` writes them, and verifies them. */
async function exportAndVerify(c: Db8Client, id: string, v: ArenaView) {
  const dir = mkdtempSync(join(tmpdir(), 'db8-arena-export-'));
  mkdirSync(join(dir, 'matches'));
  const text = async (room: string) => {
    let out = '';
    for await (const r of c.export(room)) out += `${JSON.stringify(r)}\n`;
    return out;
  };
  writeFileSync(join(dir, 'tournament.jsonl'), await text(id));
  for (const m of v.matches) writeFileSync(join(dir, 'matches', `${m.id}.jsonl`), await text(m.result!.room));
  writeFileSync(join(dir, 'standings.json'), JSON.stringify(v.standings));
  try {
    return await verifyArena(dir, arenaGames);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('server-run tournaments', () => {
  it('plays a sealed-bid round robin of four scripted entrants in real match rooms', async () => {
    const { admin } = await server();
    const t = await admin.createRoom(cup('server cup'));
    const v = await untilView(admin, t.room_id, (x) => x.phase === 'closed');
    // Four entrants, six pairs, both seat orders.
    expect(v.matches).toHaveLength(12);
    expect(v.played).toBe(12);
    expect(v.standings.rows.map((r) => r.entrant).sort()).toEqual(
      ['lowballer', 'shader', 'truthful', 'truthful too'].sort(),
    );
    expect(v.standings.rows.reduce((n, r) => n + r.wins + r.draws + r.losses, 0)).toBe(24);
    for (const m of v.matches) {
      const room = await admin.getRoom(m.result!.room);
      expect(room.protocol).toBe('sealed-bid');
      expect(room.status).toBe('closed');
      expect(room.title).toBe(`server cup: ${m.id}`);
    }
    const verdict = await exportAndVerify(admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    expect(verdict.ok).toBe(true);
    await servers.stopLast();
  });

  it('plays a debate round robin of four scripted debaters, the strongest first, as the CLI places them', async () => {
    const { admin } = await server();
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'debate cup',
      config: {
        name: 'debate cup',
        game: 'debate',
        gameConfig: { topic: 'This house would make every public record machine-readable', rounds: 1 },
        format: { kind: 'round-robin', games: 2 },
        entrants: [
          { name: 'evidence', kind: 'scripted', strategy: 'evidence' },
          { name: 'hedger', kind: 'scripted', strategy: 'hedge' },
          { name: 'sloppy', kind: 'scripted', strategy: 'sloppy' },
          { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'debate-cup-1',
        concurrency: 2,
        bootstrap: 20,
      },
    });
    const v = await untilView(admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.matches).toHaveLength(12);
    for (const m of v.matches) {
      const room = await admin.getRoom(m.result!.room);
      expect(room.protocol).toBe('debate');
      expect(room.status).toBe('closed');
    }
    // The same order and records `db8 arena run examples/arena-debate-round-robin.yaml` gives
    // (packages/app/test/arena.debate.test.ts): the house judge's fixed rules decide every match.
    expect(v.standings.rows.map((r) => [r.entrant, r.wins])).toEqual([
      ['evidence', 6],
      ['hedger', 4],
      ['sloppy', 2],
      ['bluffer', 0],
    ]);
    const verdict = await exportAndVerify(admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    expect(verdict.ok).toBe(true);
    await servers.stopLast();
  });

  it('plays a model entrant through its own provider: every call a driver_calls row of its match room', async () => {
    // The repository's mock model server (a real local HTTP server, not a real model) is the
    // server's configured `openai` provider; the model bids 7 whatever its value.
    const mock = await ModelServer.start();
    mock.respond(() => ({ reply: { bid: 7 }, usage: { input: 50, output: 4 } }));
    try {
      const { admin } = await server(0, { OPENAI_BASE_URL: mock.openaiBaseUrl, OPENAI_API_KEY: 'sk-mock' });
      const withModel = cup('model cup');
      const entrants = withModel.config.entrants as Array<Record<string, string>>;
      entrants[3] = { name: 'a model', kind: 'model', provider: 'openai', model: 'mock-bidder' };
      const t = await admin.createRoom(withModel);
      const v = await untilView(admin, t.room_id, (x) => x.phase === 'closed');
      expect(v.played).toBe(12);
      const theirs = v.matches.filter((m) => m.entrants.includes('a model'));
      expect(theirs).toHaveLength(6);
      // One call per match it bid in, each asked of the mock and recorded against that match room.
      expect(mock.requests.filter((r) => r.body.model === 'mock-bidder')).toHaveLength(6);
      const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
      const calls = await db.query<{ room_id: string; seat: string; ok: boolean; input_tokens: number }>(
        'SELECT room_id, seat, ok, input_tokens FROM driver_calls WHERE room_id LIKE $1 ORDER BY room_id',
        [`${t.room_id}-%`],
      );
      await db.close();
      expect(calls.map((c) => c.room_id)).toEqual(theirs.map((m) => m.result!.room).sort());
      for (const c of calls) {
        const m = theirs.find((x) => x.result!.room === c.room_id)!;
        expect(c.seat).toBe(`bidder_${m.entrants.indexOf('a model') + 1}`);
        expect(c).toMatchObject({ ok: true, input_tokens: 50 });
      }
      const verdict = await exportAndVerify(admin, t.room_id, v);
      expect(verdict.problems).toEqual([]);
      expect(verdict.ok).toBe(true);
      await servers.stopLast();
    } finally {
      await mock.close();
    }
  });

  it('leaves to their organizer the tournaments it should not play: organizer-run, or with a model it has no provider for', async () => {
    const { admin } = await server();
    const byHand = cup('by hand');
    const withModel = cup('with a model');
    const modelled = withModel.config.entrants as Array<Record<string, string>>;
    // No ANTHROPIC_API_KEY in this server's environment: the provider is not configured here.
    modelled[3] = { name: 'a model', kind: 'model', provider: 'anthropic', model: 'claude-x' };
    const a = await admin.createRoom({ ...byHand, config: { ...byHand.config, runBy: 'organizer' } });
    const b = await admin.createRoom(withModel);
    // One it plays, made last: once it is over, the runner has looked at all three more than once.
    const c = await admin.createRoom(cup('played'));
    await untilView(admin, c.room_id, (x) => x.phase === 'closed');
    for (const id of [a.room_id, b.room_id]) {
      const v = await viewOf(admin, id);
      expect(v.round).toBe(0);
      expect(v.matches).toEqual([]);
      expect(v.phase).toBe('running');
    }
    await servers.stopLast();
  });

  it('plays duplicate poker: each rotation in its own table room, the hands checked by the verifier', async () => {
    const { admin } = await server();
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'server duplicate',
      config: {
        name: 'server duplicate',
        game: 'poker',
        gameConfig: { hands: 10, bigBlind: 10 },
        format: { kind: 'duplicate-poker', deals: 2 },
        entrants: ['tight', 'random'].map((s) => ({ name: s, kind: 'scripted', strategy: s })),
        seed: 'server duplicate',
        bootstrap: 0,
      },
    });
    const v = await untilView(admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.played).toBe(4);
    for (const m of v.matches) {
      expect(m.result!.hands).toBeGreaterThanOrEqual(1);
      expect((await admin.getRoom(m.result!.room)).protocol).toBe('poker');
    }
    expect(v.standings.poker?.rows.map((r) => r.entrant).sort()).toEqual(['random', 'tight']);
    const verdict = await exportAndVerify(admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    await servers.stopLast();
  });

  it('on a cluster, both processes play one tournament: each match once, never more than `concurrency` in play', async () => {
    // NATS: each process hears the other's entries (a schedule, a result) at once.
    const bus = { natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' };
    const a = await server(20, {}, bus);
    await server(20, {}, bus);
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const spec = cup('cluster cup');
    spec.config.concurrency = 3; // two processes could take two each: the cap is the cluster's
    const t = await a.admin.createRoom(spec);
    const inPlay = watchInPlay(db, t.room_id);
    const v = await untilView(a.admin, t.room_id, (x) => x.phase === 'closed');
    const most = await inPlay.stop();
    expect(v.played).toBe(12);
    // Read from the store while the tournament ran: never more match rooms open at once than allowed.
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThanOrEqual(1);
    // Each match played once: exactly the twelve reported rooms exist (a match played twice would
    // have been refused, abandoned or replayed as …-r2), and one result entry per match.
    const rooms = await matchRooms(db, t.room_id);
    expect(rooms.map((r) => r.id).sort()).toEqual(v.matches.map((m) => m.result!.room).sort());
    expect(rooms.every((r) => /-m\d+$/.test(r.id))).toBe(true);
    expect((await resultsOf(db, t.room_id)).sort()).toEqual(v.matches.map((m) => m.id).sort());
    // Both processes played: each match room names the process that opened and played it.
    const by = new Set(rooms.map((r) => r.createdBy));
    expect(by.size).toBe(2);
    for (const b of by) expect(b).toMatch(/^arena@/);
    const verdict = await exportAndVerify(a.admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    await db.close();
    await servers.stopLast();
    await servers.stopLast();
  });

  it('on a cluster, a process stopped mid-tournament leaves its matches to the other, which finishes it', async () => {
    // No NATS: the other process learns of the stop's released leases at its scan (the safety net).
    // b holds its first match room after one bid until it stops: that room is half-played whenever
    // the stop lands.
    const holds = Holds.first(2);
    const a = await server(40, { DB8_ARENA_NODE: 'a' });
    await server(0, { DB8_ARENA_NODE: 'b' }, { modules: modulesPacedBy(holds.pace) });
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const t = await a.admin.createRoom(cup('takeover cup'));
    const held = await holds.until((rooms) => rooms[0]);
    // Wait until a has played too, then stop b.
    while (!(await matchRooms(db, t.room_id)).some((r) => r.createdBy === 'arena@a'))
      await new Promise((r) => setTimeout(r, 20));
    const inPlayOnB = (await matchRooms(db, t.room_id))
      .filter((r) => r.createdBy === 'arena@b' && r.status === 'open')
      .map((r) => r.id);
    expect(inPlayOnB).toContain(held);
    // (a may take b's matches over while b is still closing: b lets its leases go first.)
    await servers.stopLast();
    const v = await untilView(a.admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.played).toBe(12);
    // None lost, none doubled: one result per match.
    expect((await resultsOf(db, t.room_id)).sort()).toEqual(v.matches.map((m) => m.id).sort());
    // What b left half-played, a ended as abandoned and replayed in a new room, which is the one
    // reported (b stops at its next write: a room b was playing is finished by b only if that
    // write was its last).
    const rooms = await matchRooms(db, t.room_id);
    const replayed = inPlayOnB.filter((id) => !v.matches.some((m) => m.result!.room === id));
    expect(replayed).toContain(held);
    for (const id of replayed) {
      expect(rooms.find((x) => x.id === id)!.status).toBe('closed');
      const match = v.matches.find((m) => id === `${t.room_id}-${m.id}`)!;
      expect(match.result!.room).toBe(`${id}-r2`);
      expect(rooms.find((x) => x.id === `${id}-r2`)!.createdBy).toBe('arena@a');
    }
    expect(rooms.filter((r) => r.status === 'open')).toEqual([]);
    const verdict = await exportAndVerify(a.admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    await db.close();
    await servers.stopLast();
  });

  it('on a cluster, a process killed mid-match (SIGKILL: no lease released) leaves its matches, once their leases expire, to the other, which finishes it', async () => {
    // Short leases (DB8_ARENA_LEASE_MS), so the takeover waits seconds, not the default 15.
    const env = { DB8_ARENA_SCAN_MS: '200', DB8_ARENA_LEASE_MS: '3000' };
    const a = await spawnNode({ ...env, DB8_ARENA_NODE: 'a' });
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const t = await a.admin.createRoom(cup('crash cup'));
    // a holds its first match room after one bid, and never moves it on: it dies there.
    const held = await a.held;
    const b = await server(0, { ...env, DB8_ARENA_NODE: 'b' });
    // b works on the tournament (its node lease is live) before a dies.
    for (;;) {
      const nodes = await db.query<{ name: string }>(
        `SELECT name FROM leases WHERE name = $1 AND expires_at >= now()`,
        [`arena:${t.room_id}:node:b`],
      );
      if (nodes.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    a.proc.kill('SIGKILL');
    await a.exited;
    expect(a.proc.signalCode).toBe('SIGKILL');
    const v = await untilView(b.admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.played).toBe(12);
    // None lost, none doubled.
    expect((await resultsOf(db, t.room_id)).sort()).toEqual(v.matches.map((m) => m.id).sort());
    const rooms = await matchRooms(db, t.room_id);
    // The room a died in: ended by b as abandoned, the match replayed by b as -r2, which is reported.
    expect(rooms.find((r) => r.id === held)).toMatchObject({ createdBy: 'arena@a', status: 'closed' });
    expect(v.matches.some((m) => m.result!.room === held)).toBe(false);
    const match = v.matches.find((m) => held === `${t.room_id}-${m.id}`)!;
    expect(match.result!.room).toBe(`${held}-r2`);
    expect(rooms.find((r) => r.id === `${held}-r2`)!.createdBy).toBe('arena@b');
    expect(rooms.filter((r) => r.status === 'open')).toEqual([]);
    const verdict = await exportAndVerify(b.admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    await db.close();
    await servers.stopLast();
  });

  it('on a cluster, a process takes at most ⌈concurrency / nodes⌉ slots: alone all four, beside another two', async () => {
    // Every match room is held before its first write until the test lets it go, so who holds
    // which slot is read at rest. No NATS: the other process looks at its scan.
    const holdA = new Holds(() => true);
    const holdB = new Holds(() => true);
    const a = await server(0, { DB8_ARENA_NODE: 'a' }, { modules: modulesPacedBy(holdA.pace) });
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const spec = cup('share cup');
    spec.config.concurrency = 4;
    const t = await a.admin.createRoom(spec);
    // Alone, a takes every slot.
    await holdA.until((rooms) => rooms.length === 4);
    await server(0, { DB8_ARENA_NODE: 'b' }, { modules: modulesPacedBy(holdB.pace) });
    for (;;) {
      const live = await db.query<{ name: string }>(
        `SELECT name FROM leases WHERE left(name, length($1)) = $1 AND expires_at >= now()`,
        [`arena:${t.room_id}:node:`],
      );
      if (live.length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Two live nodes: each slot a lets go goes to b until each holds two, and then each keeps two.
    const seen: Array<[number, number]> = [];
    for (let step = 0; step < 6; step++) {
      const before = new Set([...holdA.rooms(), ...holdB.rooms()]);
      // a's while it has more than two, then in turn.
      const from = holdA.rooms().length > 2 || step % 2 === 1 ? holdA : holdB;
      const room = from.rooms()[0]!;
      from.release(room);
      await untilView(a.admin, t.room_id, (x) => x.matches.some((m) => m.result?.room === room));
      // Settled: four held again, one of them new.
      await new Promise<void>((resolve) => {
        const done = () =>
          holdA.rooms().length + holdB.rooms().length === 4 &&
          [...holdA.rooms(), ...holdB.rooms()].some((r) => !before.has(r));
        void Promise.race([holdA.until(done), holdB.until(done)]).then(() => resolve());
      });
      seen.push([holdA.rooms().length, holdB.rooms().length]);
    }
    expect(seen).toEqual([
      [3, 1],
      [2, 2],
      [2, 2],
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
    holdA.open();
    holdB.open();
    const v = await untilView(a.admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.played).toBe(12);
    expect((await resultsOf(db, t.room_id)).sort()).toEqual(v.matches.map((m) => m.id).sort());
    const by = new Set((await matchRooms(db, t.room_id)).map((r) => r.createdBy));
    expect(by).toEqual(new Set(['arena@a', 'arena@b']));
    await db.close();
    await servers.stopLast();
    await servers.stopLast();
  });

  it('survives a restart mid-tournament: a new server finishes it, no match lost or doubled', async () => {
    // The first match room to reach its second write (one bid in) is held there until the server
    // stops: whenever the stop lands, that match is half-played and the tournament unfinished.
    const holds = Holds.first(2);
    const first = await server(0, {}, { modules: modulesPacedBy(holds.pace) });
    const db = postgresDriver(PG_URL, { schema: servers.schema, max: 1 });
    const t = await first.admin.createRoom(cup('restart cup'));
    const held = await holds.until((rooms) => rooms[0]);
    // The other slot plays on meanwhile: stop once a result is in.
    await untilView(first.admin, t.room_id, (x) => x.played >= 1);
    await servers.stopLast();
    const [bids] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM entries WHERE room_id = $1 AND kind = 'action'`,
      [held],
    );
    expect(bids!.n).toBe(1);
    // Read straight from the database while no server runs: results in, not all (the step delay
    // keeps the tournament going), and which ones.
    const resultsIn = async () =>
      (
        await db.query<{ match: string }>(
          `SELECT public_json::json->'payload'->>'match' AS match FROM entries
            WHERE room_id = $1 AND kind = 'action' AND public_json::json->'payload'->>'type' = 'result'`,
          [t.room_id],
        )
      ).map((r) => r.match);
    const stopped = await resultsIn();
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    expect(stopped.length).toBeLessThan(12);
    const before = await viewOfDb(db, t.room_id);
    // The match rooms the first server left half-played: the held one, and the other slot's if the
    // stop caught it mid-match (it stops at its next write).
    const halfPlayed = (
      await db.query<{ id: string }>(`SELECT id FROM rooms WHERE status = 'open' AND id LIKE $1`, [
        `${t.room_id}-%`,
      ])
    ).map((r) => r.id);
    expect(halfPlayed).toContain(held);
    const { admin } = await server();
    const v = await untilView(admin, t.room_id, (x) => x.phase === 'closed');
    expect(v.played).toBe(12);
    // Every result the first server appended is still the one reported.
    for (const [match, room] of before)
      expect(v.matches.find((x) => x.id === match)!.result!.room).toBe(room);
    // One result entry per match in the log: none lost, none doubled.
    expect((await resultsIn()).sort()).toEqual(v.matches.map((m) => m.id).sort());
    await db.close();
    // A match left half-played is ended as abandoned and replayed in a new room, which is the one reported.
    for (const id of halfPlayed) {
      expect((await admin.getRoom(id)).status).toBe('closed');
      expect(v.matches.some((m) => m.result!.room === id)).toBe(false);
      const match = v.matches.find((m) => id === `${t.room_id}-${m.id}`)!;
      expect(match.result!.room).toBe(`${t.room_id}-${match.id}-r2`);
    }
    const open = await admin.listRooms({ protocol: 'sealed-bid', status: 'open', limit: 100 });
    expect(open.rooms.filter((r) => r.room_id.startsWith(t.room_id))).toEqual([]);
    const verdict = await exportAndVerify(admin, t.room_id, v);
    expect(verdict.problems).toEqual([]);
    expect(verdict.ok).toBe(true);
  });
});

const here = dirname(fileURLToPath(import.meta.url));

/**
 * A server in a process of its own (arena-node.ts), killable with SIGKILL: `held` is the match room
 * it holds after that room's first bid, forever.
 */
async function spawnNode(env: Record<string, string>) {
  const arg = JSON.stringify({
    databaseUrl: PG_URL,
    pgSchema: servers.schema,
    dataDir: servers.dataDir,
    env,
    hold: 2,
  });
  // Node itself runs the script (--import tsx), so the SIGKILL hits the server, not a wrapper.
  const proc = spawn(process.execPath, ['--import', 'tsx', join(here, 'arena-node.ts'), arg], {
    cwd: join(here, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d) => {
    err += String(d);
  });
  const line = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const m = re.exec(out);
        if (m) resolve(m);
      };
      proc.stdout!.on('data', (d) => {
        out += String(d);
        look();
      });
      void exited.then(() => reject(new Error(`arena-node exited: ${err}`)));
    });
  const ready = await line(/READY (\S+) (\S+)/);
  const token = new URL(ready[2]!).hash.replace('#token=', '');
  const login = await new Db8Client({ baseUrl: ready[1]! }).adminLogin(token);
  return {
    proc,
    exited,
    admin: new Db8Client({ baseUrl: ready[1]!, token: login.token }),
    held: line(/HELD (\S+)/).then((m) => m[1]!),
  };
}

/** Match → room of every result in the tournament's log, read from the database. */
async function viewOfDb(db: ReturnType<typeof postgresDriver>, room: string): Promise<Map<string, string>> {
  const rows = await db.query<{ match: string; room: string }>(
    `SELECT public_json::json->'payload'->>'match' AS match, public_json::json->'payload'->>'room' AS room
       FROM entries WHERE room_id = $1 AND kind = 'action' AND public_json::json->'payload'->>'type' = 'result'`,
    [room],
  );
  return new Map(rows.map((r) => [r.match, r.room]));
}

type Db = ReturnType<typeof postgresDriver>;

/** A tournament's match rooms as the store has them, with the process that opened each. */
async function matchRooms(db: Db, tournament: string) {
  const rows = await db.query<{ id: string; created_by: string | null; status: string }>(
    `SELECT id, created_by, status FROM rooms WHERE left(id, length($1)) = $1 AND protocol <> 'arena' ORDER BY id`,
    [`${tournament}-`],
  );
  return rows.map((r) => ({ id: r.id, createdBy: r.created_by, status: r.status }));
}

/** The match of every result entry in the tournament's log (a doubled result would show twice). */
async function resultsOf(db: Db, tournament: string): Promise<string[]> {
  const rows = await db.query<{ match: string }>(
    `SELECT public_json::json->'payload'->>'match' AS match FROM entries
      WHERE room_id = $1 AND kind = 'action' AND public_json::json->'payload'->>'type' = 'result'`,
    [tournament],
  );
  return rows.map((r) => r.match);
}

/**
 * Counts the tournament's open match rooms in the store, again and again until stopped, and keeps the
 * most seen at once. A sample can miss a peak, never invent one: a count over the cap is a real breach.
 */
function watchInPlay(db: Db, tournament: string): { stop(): Promise<number> } {
  let most = 0;
  let done = false;
  const loop = (async () => {
    while (!done) {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM rooms WHERE left(id, length($1)) = $1 AND protocol <> 'arena' AND status = 'open'`,
        [`${tournament}-`],
      );
      most = Math.max(most, row!.n);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      done = true;
      await loop;
      return most;
    },
  };
}
