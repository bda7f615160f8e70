// A real sealed-bid room, built through the runtime on PGlite, for the journal and replay tests.
import { spawn, spawnSync } from 'node:child_process';
import { canonicalize, createProtocolRegistry, type Viewer } from '@db8/core';
import { sealedBid } from '@db8/sealed-bid';
import { Runtime, type Store, serverKeyFromSeed } from '@db8/server';
import { BIN } from './helpers.ts';

/** Run the real CLI as a user would. */
export function db8(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input: opts.input,
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same, without blocking: needed when the server the CLI talks to lives in this test process
 * (spawnSync would stall its event loop, and the CLI would wait for an answer forever).
 */
export function db8Async(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export const ORIGIN = 'db8.test';
export const KEY = serverKeyFromSeed(new Uint8Array(32).fill(7), 'db8.test');
export const OTHER_KEY = serverKeyFromSeed(new Uint8Array(32).fill(9), 'db8.test');

export function sealedBidRuntime(store: Store, serverKey = KEY): Runtime {
  let t = 1_750_000_000_000;
  return new Runtime({
    store,
    protocols: createProtocolRegistry([sealedBid]),
    serverKey,
    origin: ORIGIN,
    clock: () => (t += 1000),
    snapshotEvery: 3,
    checkpointEvery: 4,
  });
}

/**
 * A closed auction: three bidders bid sealed (one changes its bid), everyone has bid so the tick
 * reveals the latest bids, the auctioneer confirms, and the close entry reveals the room seed.
 */
export async function sealedBidRoom(rt: Runtime): Promise<string> {
  const { id } = await rt.createRoom({
    protocol: 'sealed-bid',
    title: 'A painting',
    config: {
      item: 'painting',
      bidders: 3,
      reservePrice: 10,
      biddingWindowMs: 3_600_000,
      revealWindowMs: 3_600_000,
      rule: 'second-price',
    },
  });
  for (const p of ['ann', 'bob', 'cat']) await rt.join(id, { principal: p });
  // The auctioneer's seat is given by name (privileged): auto-assignment never hands it out.
  await rt.join(id, { principal: 'dee', seat: 'auctioneer' });
  await rt.act(id, { seat: 'bidder_1', action: { type: 'bid', amount: 120 } });
  await rt.act(id, { seat: 'bidder_2', action: { type: 'bid', amount: 90 } });
  await rt.act(id, { seat: 'bidder_1', action: { type: 'bid', amount: 150 } });
  await rt.act(id, { seat: 'bidder_3', action: { type: 'bid', amount: 40 } });
  const ticked = await rt.tick(id);
  if (ticked === null) throw new Error('the bidding should have ended once everyone had bid');
  await rt.act(id, { seat: 'auctioneer', action: { type: 'confirm' } });
  const room = await rt.getRoom(id);
  if (room.status !== 'closed') throw new Error(`auction did not close: ${room.status}`);
  return id;
}

/** The bundle as the export route writes it: one canonical JSON record per line. */
export async function exportText(rt: Runtime, roomId: string, viewer: Viewer = { kind: 'observer' }) {
  const lines: string[] = [];
  for await (const r of rt.export(roomId, viewer)) lines.push(`${canonicalize(r)}\n`);
  return lines.join('');
}

/** Parsed records of a bundle's text (tests edit them, then re-serialise with toText). */
export function records(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function toText(recs: ReadonlyArray<unknown>): string {
  return recs.map((r) => `${canonicalize(r)}\n`).join('');
}
