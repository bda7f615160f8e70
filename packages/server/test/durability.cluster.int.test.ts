// Durability of a cluster (issue 14): three real server processes on one Postgres schema and one
// NATS and one server key, take bids from WebSocket clients spread over all three; one
// node is SIGKILLed mid-load and its clients move to the survivors with the same nonces. Observers
// on the survivors must get every entry once, in seq order; no acknowledged bid may be lost; and a
// deadline of a room created and last written through the dead node must still be ticked, once,
// by a survivor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Db8Client, Db8Socket } from '@db8/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateServerKey } from '../src/keys/index.ts';
import { auditRoom, retryAcked, retrySample } from './durability.checks.ts';
import {
  adminToken,
  biddingRoom,
  killAllServers,
  killServer,
  Load,
  type ServerProc,
  spawnServer,
  takeSeats,
  within,
  wsUrl,
} from './durability.helpers.ts';
import { createPgSchema, PG_URL, pgStoreIn } from './store.helpers.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** Acks before the kill, and after it. */
const PER_PHASE = 300;
const BIDDERS = ['bidder_1', 'bidder_2', 'bidder_3', 'bidder_4'];
/** The dead node's room: bidding closes this long after it is created; the node dies at once. */
const DEADLINE_MS = 4000;

describe('3-node cluster on Postgres + NATS: a node killed mid-load', () => {
  let drop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  let nodes: ServerProc[] = [];
  const watchers: Db8Socket[] = [];

  beforeAll(async () => {
    const pg = await createPgSchema();
    drop = pg.drop;
    await (await pgStoreIn(pg.schema, 1)).close(); // migrate once, so three nodes do not race on it
    dir = mkdtempSync(join(tmpdir(), 'db8-dur-cluster-'));
    loadOrCreateServerKey(dir);
    const env = {
      DATABASE_URL: PG_URL,
      DB8_PG_SCHEMA: pg.schema,
      NATS_URL,
      DB8_DATA_DIR: dir,
      // One key for the cluster (docs/server.md): tokens from one node verify on the others and
      // every node signs the room's checkpoints under the key's origin.
      DB8_SERVER_KEY: join(dir, 'server_ed25519'),
    };
    nodes = await Promise.all([spawnServer(env), spawnServer(env), spawnServer(env)]);
  });

  afterAll(async () => {
    for (const w of watchers) w.close();
    await killAllServers();
    await drop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('survivors deliver every entry in order, lose no acked bid, and tick the dead node’s deadline', async () => {
    const t0 = Date.now();
    const [a, b, c] = nodes as [ServerProc, ServerProc, ServerProc];
    const admin = await adminToken(a);
    const rooms = [await biddingRoom(a.url, admin, 5), await biddingRoom(a.url, admin, 5)];
    const seats = [];
    for (const r of rooms) seats.push(...(await takeSeats(a.url, r, BIDDERS)));

    // Observers on the two nodes that survive, from the first entry of each room.
    const seen = new Map<string, number[]>();
    const watch = async (node: ServerProc, tag: string) => {
      const w = await Db8Socket.connect({ url: wsUrl(node.url), token: admin, timeoutMs: 15_000 });
      watchers.push(w);
      w.on((m) => {
        if (m.type !== 'entry') return;
        const k = `${tag}/${m.room_id}`;
        seen.set(k, [...(seen.get(k) ?? []), m.seq]);
      });
      return w;
    };
    const [wa, wb] = [await watch(a, 'a'), await watch(b, 'b')];
    for (const r of rooms) for (const w of [wa, wb]) await w.subscribe(r, { since: -1 });

    let alive = [a, b, c];
    const load = new Load(seats, (i) => alive[i % alive.length]!.url);
    const stats = () => `${load.acked.length} acked, failures ${load.failures.join('; ')}`;
    load.start();
    await within(60_000, stats, load.acksInPhase(PER_PHASE));

    // The dead node's room: created through C, which dies at once, its deadline still ahead.
    const dead = await biddingRoom(c.url, admin, 2, DEADLINE_MS);
    alive = [a, b]; // C's clients reconnect to a survivor, resending their bid in flight
    await killServer(c);
    const killedAt = Date.now();
    for (const w of [wa, wb]) await w.subscribe(dead, { since: -1 });
    load.nextPhase();
    await within(60_000, stats, load.acksInPhase(PER_PHASE));
    await within(60_000, stats, load.stop());
    const loadMs = Date.now() - t0;
    expect(load.failures).toEqual([]);

    // No acknowledged bid lost, none twice; the export (signed by all three nodes) verifies.
    let entries = 0;
    const heads = new Map<string, number>();
    for (const room of rooms) {
      const audit = await auditRoom(a.url, admin, room);
      expect(audit.verify.failures).toEqual([]);
      expect(audit.verify.ok).toBe(true);
      const acked = load.acked.filter((x) => x.room === room);
      expect(acked.filter((x) => audit.bids.get(x.seq) !== x.amount)).toEqual([]);
      expect(new Set(audit.amounts).size).toBe(audit.amounts.length);
      expect([...audit.amounts].sort()).toEqual([...new Set(acked.map((x) => x.amount))].sort());
      heads.set(room, audit.entries - 1);
      entries += audit.entries;
    }
    const retries = await retryAcked(b.url, seats, retrySample(load.acked, 4, 50));
    expect(retries.filter((r) => r.seq !== r.firstSeq || !r.duplicate)).toEqual([]);

    // The dead node's deadline: ticked once, by a survivor (after C was gone), at or after it. With
    // no bid in, the tick ends the auction unsold and the room closes.
    const deadLog = async () =>
      (await new Db8Client({ baseUrl: b.url, token: admin }).entries(dead, { limit: 100 })).entries;
    await pollUntil(
      async () => (await deadLog()).some((e) => e.kind === 'close'),
      30_000,
      'the dead node’s room did not close',
    );
    const log = await deadLog();
    const [tick, ...more] = log.filter((e) => e.kind === 'tick');
    expect(more).toEqual([]);
    const deadline = (tick!.payload as { deadline: number }).deadline;
    expect(tick!.ts).toBeGreaterThanOrEqual(deadline);
    expect(tick!.ts).toBeGreaterThan(killedAt);
    heads.set(dead, log.at(-1)!.seq);

    // Every survivor's observer got each room's entries once, in order, with no gap.
    const complete = () =>
      [...heads].every(([room, head]) =>
        ['a', 'b'].every((t) => (seen.get(`${t}/${room}`) ?? []).at(-1) === head),
      );
    await pollUntil(async () => complete(), 30_000, 'the observers did not reach each head');
    for (const [room, head] of heads)
      for (const t of ['a', 'b'])
        expect(seen.get(`${t}/${room}`)).toEqual(Array.from({ length: head + 1 }, (_, i) => i));

    console.log(
      `durability cluster: 3 nodes, 1 kill -9, ${load.acked.length} acks (${load.resent.length} resent after the kill), ` +
        `${entries} entries, ${retries.length} same-nonce retries, 0 lost, 2 observers gap-free, dead node's deadline ticked ` +
        `${tick!.ts - deadline} ms after it; load ${loadMs} ms, total ${Date.now() - t0} ms`,
    );
  });
});

/** Re-check `cond` until it holds; after `ms` (a bound), fail naming `what`. */
async function pollUntil(cond: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
