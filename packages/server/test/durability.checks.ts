// What the durability suites read back from a server after the kills: the admin export (verified
// offline against the pinned server key), the bids it holds by seq, the checkpoint list, and the
// answers to same-nonce retries.
import { journalEntries, parseJournalText, type VerifyBundleResult, verifyBundleText } from '@db8/core';
import { Db8Client } from '@db8/sdk';
import { protocolRegistryOf } from '@db8/server';
import { builtinModules } from 'db8/src/server-modules.ts';
import { type ReplayReport, replayRoom } from '../src/runtime/index.ts';
import type { Store } from '../src/store/index.ts';
import type { Acked, Seat } from './durability.helpers.ts';

export interface RoomAudit {
  verify: VerifyBundleResult;
  entries: number;
  /** seq -> bid amount, from the sealed payloads of the admin export. */
  bids: Map<number, number>;
  /** Every bid amount in the log, in log order (duplicates kept, so a double commit shows). */
  amounts: number[];
  checkpointSizes: number[];
  /** Checkpoints served by the room whose root is not the export's tree root at that size. */
  checkpointMismatches: number;
}

/** Export a room as admin and verify it with core's verifyBundle against the server's key. */
export async function auditRoom(url: string, admin: string, room: string): Promise<RoomAudit> {
  const c = new Db8Client({ baseUrl: url, token: admin });
  const keys = await c.keys();
  const res = await fetch(`${url}/v1/rooms/${room}/export`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  if (!res.ok) throw new Error(`export ${room}: HTTP ${res.status}`);
  const text = await res.text();
  const verify = verifyBundleText(text, { pinnedKey: keys.note_vkey });
  const entries = journalEntries(parseJournalText(text).records.map((r) => r.value));
  const bids = new Map<number, number>();
  const amounts: number[] = [];
  for (const e of entries) {
    const p = e.sealed?.payload as { type?: string; amount?: number } | undefined;
    if (e.kind === 'action' && p?.type === 'bid' && typeof p.amount === 'number') {
      bids.set(e.seq, p.amount);
      amounts.push(p.amount);
    }
  }
  const cps = (await c.checkpoints(room)).checkpoints;
  // The bundle's checkpoints are the served ones; verifyBundle checked each root against the tree.
  return {
    verify,
    entries: entries.length,
    bids,
    amounts,
    checkpointSizes: cps.map((cp) => cp.size),
    checkpointMismatches: cps.length - verify.checkpoints,
  };
}

export interface RetryResult {
  nonce: string;
  firstSeq: number;
  seq: number;
  duplicate: boolean;
}

/** Send acked bids again over REST with their nonce: each must answer its first seq, as a duplicate. */
export async function retryAcked(url: string, seats: Seat[], sample: Acked[]): Promise<RetryResult[]> {
  const tokenOf = new Map(seats.map((s) => [`${s.room}/${s.seat}`, s.token]));
  const out: RetryResult[] = [];
  for (const a of sample) {
    const c = new Db8Client({ baseUrl: url, token: tokenOf.get(`${a.room}/${a.seat}`)! });
    const ack = await c.act(a.room, {
      seat: a.seat,
      action: { type: 'bid', amount: a.amount },
      client_nonce: a.nonce,
    });
    out.push({ nonce: a.nonce, firstSeq: a.seq, seq: ack.seq, duplicate: ack.duplicate });
  }
  return out;
}

/**
 * The acks most at risk and a spread of the rest: per phase and room, the last `last` acked before
 * the kill, plus every `every`-th one.
 */
export function retrySample(acked: Acked[], last = 8, every = 25): Acked[] {
  const groups = new Map<string, Acked[]>();
  for (const a of acked) {
    const k = `${a.phase}/${a.room}`;
    groups.set(k, [...(groups.get(k) ?? []), a]);
  }
  const pick = new Set<Acked>();
  for (const g of groups.values()) {
    for (const a of g.slice(-last)) pick.add(a);
    for (let i = 0; i < g.length; i += every) pick.add(g[i]!);
  }
  return [...pick];
}

/** Refold each room from entry 0 on the store and compare with the stored state (runtime replay). */
export async function replayRooms(store: Store, rooms: string[]): Promise<ReplayReport[]> {
  const protocols = protocolRegistryOf(builtinModules);
  const out: ReplayReport[] = [];
  for (const r of rooms) out.push(await replayRoom(store, protocols, r));
  return out;
}
