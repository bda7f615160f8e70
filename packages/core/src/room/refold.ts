import { z } from 'zod';
import { fromHex } from '../crypto/bytes.ts';
import { sha256Hex } from '../crypto/hash.ts';
import { canonicalize, type JsonValue } from '../json/index.ts';
import {
  commitmentOf,
  entryLeafHashHex,
  type PublicEntry,
  type StoredEntry,
  verifyReveal,
} from '../log/entry.ts';
import type { AnyProtocol, SeatInfo } from '../protocol/contract.ts';
import { asJson } from './build.ts';
import { type Ended, endedOf, FoldedRoom, foldEntry, RefoldError, stateHash } from './fold.ts';

/**
 * Offline refold: a room's log (from a journal bundle, a server export or a LocalRoom) folded again
 * from its genesis — protocol name and version, config, seats — with the seed its close entry
 * revealed, through the same `foldEntry` the server loads rooms with. Every recorded note must be
 * recomputed, every action accepted, the room must close exactly when the protocol says it is over
 * (or earlier, when its close entry records who ended it), and the close entry's result must be the
 * result the refold reaches.
 */

const GenesisSchema = z.object({
  protocol: z.string(),
  version: z.number().int(),
  config: z.unknown(),
  seats: z.array(z.object({ id: z.string(), role: z.string() })),
  seedCommit: z.string().optional(),
});

export interface RefoldReport {
  /** True when the log refolded and reached its recorded result (or is open and folded cleanly). */
  ok: boolean;
  protocol: string | null;
  version: number | null;
  /** The last seq folded (-1 when nothing was). */
  seq: number;
  closed: boolean;
  /** SHA-256 of the canonical refolded state (null when nothing was folded). */
  stateHash: string | null;
  /** The protocol's result on the refolded state (null while the room is not over). */
  result: JsonValue | null;
  /** Who ended the room before its protocol was over, and why (its close entry's `ended`). */
  ended?: Ended;
  /** Why the log could not be refolded here at all (not a failure of the log). */
  skipped?: string;
  firstDivergence?: number;
  problems: string[];
}

export type ProtocolLookup = ReadonlyMap<string, AnyProtocol>;

export interface RefoldOptions {
  /** The room seed, when the caller knows it (an admin export); else the close entry's. */
  seed?: string;
  /**
   * A protocol's own checks after each folded entry (e.g. poker's chip conservation and deal
   * proofs): each problem is reported at that entry's seq; folding goes on.
   */
  check?: (entry: StoredEntry, state: unknown) => readonly string[];
  /** Called after each entry is folded, with the state it left (a step-by-step inspector). */
  onStep?: (entry: StoredEntry, state: unknown) => void;
  /**
   * An open room's seed is secret until it closes. With this, a room whose protocol's setup never
   * reads the seed (watched while it runs) is folded with a stand-in, which gives the very same
   * states; any other open room is still skipped.
   */
  standInSeed?: boolean;
}

/** The holder of a seat whose join entry is sealed from the reader. */
const SEALED_HOLDER = '(sealed)';

/** Folds an open room whose setup ignores the seed (RefoldOptions.standInSeed). */
const STAND_IN_SEED = '00'.repeat(32);

/** True when `setup` never reads the seed for this config: every seed gives the same state. */
function setupIgnoresSeed(p: AnyProtocol, config: unknown, seats: SeatInfo[], now: number): boolean {
  let read = false;
  const ctx = {
    seats,
    now,
    get seed() {
      read = true;
      return STAND_IN_SEED;
    },
  };
  try {
    p.setup(config, ctx);
  } catch {
    return false;
  }
  return !read;
}

export function refoldLog(
  entries: readonly StoredEntry[],
  protocols: ProtocolLookup,
  opts: RefoldOptions = {},
): RefoldReport & { state: unknown } {
  const problems: string[] = [];
  const out = (r: Partial<RefoldReport> & { state?: unknown }): RefoldReport & { state: unknown } => ({
    ok: problems.length === 0 && r.skipped === undefined,
    protocol: null,
    version: null,
    seq: -1,
    closed: false,
    stateHash: null,
    result: null,
    problems,
    state: undefined,
    ...r,
  });
  const g0 = entries[0];
  const g = GenesisSchema.safeParse(g0?.payload);
  if (g0?.kind !== 'genesis' || g0.seq !== 0 || !g.success) {
    problems.push('seq 0: the log does not start with a genesis entry');
    return out({ firstDivergence: 0 });
  }
  const genesis = g.data;
  const head = { protocol: genesis.protocol, version: genesis.version };
  const p = protocols.get(genesis.protocol);
  if (!p) return out({ ...head, skipped: `this verifier does not run protocol ${genesis.protocol}` });
  if (p.version !== genesis.version)
    return out({
      ...head,
      skipped: `the log is ${p.name} v${genesis.version}; this verifier runs v${p.version}`,
    });
  const close = entries.find((e) => e.kind === 'close');
  const known = opts.seed ?? (close?.payload as { seed?: unknown } | undefined)?.seed;
  const given = typeof known === 'string' && /^[0-9a-f]{64}$/.test(known) ? known : null;
  const open = 'the room is open: its seed is revealed only when it closes';
  if (given === null && !opts.standInSeed) return out({ ...head, skipped: open });
  if (
    given !== null &&
    genesis.seedCommit !== undefined &&
    sha256Hex(fromHex(given)) !== genesis.seedCommit
  ) {
    problems.push('seq 0: the seed does not match the genesis seed commitment');
    return out({ ...head, firstDivergence: 0 });
  }
  let seats: Array<{ id: string; role: string }> = [];
  try {
    seats = p.seats(genesis.config).map((s) => ({ id: s.id, role: s.role }));
  } catch (err) {
    problems.push(`seq 0: the genesis config is not a ${p.name} config: ${(err as Error).message}`);
    return out({ ...head, firstDivergence: 0 });
  }
  if (canonicalize(seats) !== canonicalize(genesis.seats)) {
    problems.push('seq 0: the genesis seats are not the seats the protocol gives this config');
    return out({ ...head, firstDivergence: 0 });
  }
  const seed = given ?? (setupIgnoresSeed(p, genesis.config, seats, g0.ts) ? STAND_IN_SEED : null);
  if (seed === null) return out({ ...head, skipped: open });

  // A public bundle lacks sealed payloads, but each one a later entry revealed can still be folded.
  const bySeq = new Map<number, PublicEntry>();
  const revealed = new Map<number, unknown>();
  let diverged: number | undefined;
  for (const e of entries) {
    bySeq.set(e.seq, e);
    for (const rv of e.reveals ?? []) {
      const c = rv.seq < e.seq ? bySeq.get(rv.seq) : undefined;
      if (c && verifyReveal(c, rv)) revealed.set(rv.seq, rv.payload);
      else {
        problems.push(`seq ${e.seq}: the reveal of seq ${rv.seq} does not match its commitment`);
        diverged ??= e.seq;
      }
    }
  }

  const memo = FoldedRoom.empty({
    id: g0.room,
    protocol: p,
    protocolVersion: p.version,
    config: genesis.config,
    seats,
    seed,
  });
  let skipped: string | undefined;
  for (const [i, e] of entries.entries()) {
    if (e.sealed && commitmentOf(e.sealed) !== e.commit) {
      problems.push(`seq ${e.seq}: the sealed payload does not match its commitment`);
      diverged ??= e.seq;
      break;
    }
    // A join changes who holds a seat, never the protocol state: one sealed from this reader (an
    // open room's public bundle) folds with its holder unknown, so the states after it still follow.
    const payload =
      e.payload ??
      e.sealed?.payload ??
      revealed.get(e.seq) ??
      (e.kind === 'join' ? { seat: e.actor, principal: SEALED_HOLDER } : undefined);
    if (payload === undefined && e.kind === 'action') {
      skipped = `seq ${e.seq} is sealed and never revealed: refolding needs a bundle that carries it (--as admin)`;
      break;
    }
    try {
      foldEntry(memo, e, entryLeafHashHex(e), payload);
    } catch (err) {
      problems.push(err instanceof RefoldError ? err.message : `seq ${e.seq}: ${(err as Error).message}`);
      diverged ??= e.seq;
      break;
    }
    opts.onStep?.(e, memo.state);
    for (const why of opts.check?.(e, memo.state) ?? []) {
      problems.push(`seq ${e.seq}: ${why}`);
      diverged ??= e.seq;
    }
    const over = p.isOver(memo.state);
    const next = entries[i + 1];
    if (e.kind === 'close') {
      if (!over && endedOf(e.payload) === null)
        problems.push(`seq ${e.seq}: the room closed but the protocol says it is not over`);
      const want = canonicalize(asJson(p.result(memo.state) ?? null));
      const got = canonicalize((e.payload as { result?: unknown } | undefined)?.result ?? null);
      if (want !== got) problems.push(`seq ${e.seq}: the recorded result differs from the refolded one`);
      if (problems.length > 0) diverged ??= e.seq;
    } else if (over && e.kind !== 'genesis' && next !== undefined && next.kind !== 'close') {
      problems.push(`seq ${next.seq}: the room was over at seq ${e.seq} but did not close`);
      diverged ??= next.seq;
      break;
    }
  }
  const folded = memo.seq >= 0;
  const ended = memo.closed && close ? endedOf(close.payload) : null;
  const result = folded && p.isOver(memo.state) ? asJson(p.result(memo.state) ?? null) : null;
  return out({
    ...head,
    seq: memo.seq,
    closed: memo.closed,
    stateHash: folded ? stateHash(memo.state) : null,
    result,
    state: memo.state,
    ...(ended ? { ended } : {}),
    ...(skipped !== undefined ? { skipped } : {}),
    ...(diverged !== undefined ? { firstDivergence: diverged } : {}),
  });
}
