import { toHex } from '../crypto/bytes.ts';
import type { JsonValue } from '../json/index.ts';
import { entryPayload, type Reveal, type StoredEntry } from '../log/entry.ts';
import { PUBLIC, type Visibility } from '../log/visibility.ts';
import type {
  AnyProtocol,
  ApplyResult,
  Legal,
  Protocol,
  Rejection,
  Transition,
  Viewer,
} from '../protocol/contract.ts';
import { truncateCodePoints } from '../text/truncate.ts';
import {
  asJson,
  type BuiltEntry,
  buildEntry,
  genesisPayload,
  RevealError,
  randomSalt,
  revealsOf,
} from './build.ts';
import { closePayload, type Ended, FoldedRoom, stateHash } from './fold.ts';
import { deepFreeze } from './freeze.ts';

// biome-ignore lint/suspicious/noExplicitAny: a LocalRoom runs protocols of every shape.
type P = Protocol<any, any, any, any, any>;
type StateOf<T extends P> = T extends Protocol<unknown, infer S> ? S : never;
type ViewOf<T extends P> = T extends Protocol<unknown, unknown, unknown, infer V> ? V : never;
type ResultOf<T extends P> = T extends Protocol<unknown, unknown, unknown, unknown, infer R> ? R : never;

export interface LocalRoomOptions<T extends P> {
  protocol: T;
  /** Parsed with the protocol's config schema; the genesis entry records the parsed form. */
  config: unknown;
  /** The room seed (64 hex): committed in the genesis entry, revealed by the close entry. */
  seed: string;
  /** Genesis time (unix ms). */
  now: number;
  id?: string;
  title?: string;
  /** Salt for sealed entries; default 32 random bytes. Tests may pass a deterministic one. */
  salt?: () => string;
  /** Deep-freeze every state, so a protocol that mutates its input throws (default true). */
  freeze?: boolean;
}

/** A refusal of the room itself (not the protocol's): closed room, bad config, bad reveal. */
export class LocalRoomError extends Error {
  constructor(
    readonly code: 'BAD_CONFIG' | 'ROOM_CLOSED' | 'BAD_REVEAL' | 'UNKNOWN_SEAT' | 'SEAT_TAKEN',
    message: string,
  ) {
    super(message);
    this.name = 'LocalRoomError';
  }
}

export type Stepped<S> = Transition<S> & { seq: number };

/** One folded input (action or tick) as tests read it: what the protocol saw and asked for. */
export interface LoggedInput {
  seq: number;
  kind: 'action' | 'tick';
  actor: string;
  now: number;
  /** The action as the protocol folded it (the sealed payload for a non-public entry). */
  action?: unknown;
  /** Who may read the entry, when not everyone. */
  visibility?: Visibility;
  /** Seqs whose sealed payloads this entry revealed. */
  reveal?: readonly number[];
  milestone?: string;
}

const refusal = (code: string, message: string): { ok: false; error: Rejection } => ({
  ok: false,
  error: { code, message },
});

/**
 * A room run in memory, writing exactly the entries a server room writes (the same StoredEntry
 * format, leaf hashes and genesis/join/action/tick/close sequence) and folding them with the same
 * protocol calls. Tests drive protocols through it; `db8 council` runs a whole council in one;
 * the server runtime and `db8 verify` refold what it writes with the same `foldEntry`.
 *
 * It assigns seqs (genesis is 0), keeps entry time monotonic (an earlier `now` is lifted to the
 * last entry's), freezes every state, seals non-public entries and checks every reveal against
 * its commitment before writing it, and closes the room (seed + result + join reveals) as soon as
 * the protocol says it is over.
 */
export class LocalRoom<T extends P = AnyProtocol> {
  readonly memo: FoldedRoom;
  readonly entries: StoredEntry[] = [];
  /** RFC 6962 leaf hash (hex) of each entry, by seq. */
  readonly leaves: string[] = [];
  /** Seqs of entries that asked for a signed checkpoint after them (`milestone`), with the name. */
  readonly milestones: Array<{ size: number; milestone: string }> = [];
  readonly protocol: T;
  private readonly salt: () => string;
  private readonly freeze: boolean;

  constructor(opts: LocalRoomOptions<T>) {
    const p = opts.protocol;
    this.protocol = p;
    this.salt = opts.salt ?? randomSalt;
    this.freeze = opts.freeze ?? true;
    const parsed = p.configSchema.safeParse(opts.config);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new LocalRoomError('BAD_CONFIG', `config: ${i?.path.join('.')}: ${i?.message}`);
    }
    const config = asJson(parsed.data);
    const seats = p.seats(config).map((s) => ({ id: s.id, role: s.role }));
    this.memo = FoldedRoom.empty({
      id: opts.id ?? 'room_local',
      protocol: p,
      protocolVersion: p.version,
      config,
      seats,
      seed: opts.seed,
    });
    const payload = genesisPayload({
      protocol: p.name,
      version: p.version,
      config,
      seats,
      seed: opts.seed,
      ...(opts.title !== undefined ? { title: opts.title } : {}),
    });
    const ts = Math.max(0, Math.floor(opts.now));
    this.push({ kind: 'genesis', actor: 'system', payload, ts, milestone: 'genesis' });
    this.adopt(p.setup(config, { seats, seed: opts.seed, now: ts }));
  }

  get state(): StateOf<T> {
    return this.memo.state as StateOf<T>;
  }
  /** The last entry's seq. */
  get seq(): number {
    return this.memo.seq;
  }
  /** The seq the next entry will take. */
  get nextSeq(): number {
    return this.memo.seq + 1;
  }
  /** The last entry's time: no entry is ever written before it. */
  get lastTs(): number {
    return this.memo.lastTs;
  }
  get closed(): boolean {
    return this.memo.closed;
  }
  get id(): string {
    return this.memo.core.id;
  }

  /** Entry time for an input at `now` (default: the last entry's time): never before the last entry. */
  time(now?: number): number {
    return Math.max(Math.floor(now ?? this.memo.lastTs), this.memo.lastTs);
  }

  /**
   * A seat's action, parsed with the protocol's schema and applied at `now`. Accepted: appended,
   * state adopted (and the room closed if it is over). Refused: a typed rejection and nothing
   * changed. On a closed room the protocol's own rejection is returned, else ROOM_CLOSED.
   */
  act(seat: string, action: unknown, now?: number): ApplyResult<StateOf<T>> & { seq?: number } {
    const p = this.protocol;
    if (!this.memo.core.seats.some((s) => s.id === seat))
      return refusal('UNKNOWN_SEAT', `this room has no seat ${seat}`);
    const parsed = p.actionSchema.safeParse(action);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      return refusal(
        'BAD_ACTION',
        `action does not match the protocol schema: ${i?.path.join('.')}: ${i?.message}`,
      );
    }
    const payload = asJson(parsed.data);
    const ts = this.time(now);
    const seq = this.nextSeq;
    const r = p.apply(this.memo.state, { seat, action: payload, now: ts, seq });
    if (!r.ok) return r;
    // Nothing is written after the close; the protocol's own refusal (above) says more, if it has one.
    if (this.memo.closed) return refusal('ROOM_CLOSED', 'the room is closed');
    this.transition({ kind: 'action', actor: seat, payload, ts }, r);
    return { ...r, seq };
  }

  /** Act and insist on success. */
  must(seat: string, action: unknown, now?: number): Stepped<StateOf<T>> {
    const r = this.act(seat, action, now);
    if (!r.ok) {
      const what = truncateCodePoints(JSON.stringify(action) ?? String(action), 80);
      throw new Error(`${seat} ${what} refused: ${r.error.code} ${r.error.message}`);
    }
    return r as Stepped<StateOf<T>>;
  }

  /**
   * Advances time: the protocol's tick at `now`, written as a tick entry when it did something.
   * Null (and nothing written) when nothing was due.
   */
  tick(now?: number): Stepped<StateOf<T>> | null {
    if (this.memo.closed) return null;
    const p = this.protocol;
    const ts = this.time(now);
    const seq = this.nextSeq;
    const deadline = p.deadline(this.memo.state);
    const t = p.tick(this.memo.state, ts, seq);
    if (!t) return null;
    this.transition({ kind: 'tick', actor: 'system', payload: { deadline }, ts }, t);
    return { ...t, seq };
  }

  /** Ticks at the protocol's next deadline (or now, when that is past); null when none is set. */
  advance(): Stepped<StateOf<T>> | null {
    const d = this.deadline();
    return d === null ? null : this.tick(d);
  }

  /**
   * A principal takes a seat (the named one, or the first free unreserved one): an admin-only join
   * entry, revealed by the close entry, as the server writes it.
   */
  join(principal: string, seat?: string, now?: number): { seat: string; seq: number } {
    const m = this.memo;
    if (m.closed) throw new LocalRoomError('ROOM_CLOSED', 'the room is closed');
    const reserved = [...(this.protocol.reservedRoles ?? []), ...(this.protocol.privilegedRoles ?? [])];
    const id = seat ?? m.core.seats.find((s) => !m.holders[s.id] && !reserved.includes(s.role))?.id;
    if (id === undefined || !m.core.seats.some((s) => s.id === id))
      throw new LocalRoomError(
        'UNKNOWN_SEAT',
        seat ? `this room has no seat ${seat}` : 'every seat is taken',
      );
    if (m.holders[id]) throw new LocalRoomError('SEAT_TAKEN', `seat ${id} is taken`);
    const built = this.push({
      kind: 'join',
      actor: id,
      payload: { seat: id, principal },
      ts: this.time(now),
      vis: { kind: 'admin' },
    });
    m.holders[id] = { principal, seq: built.stored.seq };
    return { seat: id, seq: built.stored.seq };
  }

  /** The actions and ticks folded so far, in seq order (genesis, joins and close left out). */
  get inputs(): LoggedInput[] {
    const milestones = new Map(this.milestones.map((m) => [m.size - 1, m.milestone]));
    const out: LoggedInput[] = [];
    for (const e of this.entries) {
      if (e.kind !== 'action' && e.kind !== 'tick') continue;
      const i: LoggedInput = { seq: e.seq, kind: e.kind, actor: e.actor, now: e.ts };
      if (e.kind === 'action') i.action = entryPayload(e);
      if (e.vis.kind !== 'public') i.visibility = e.vis;
      if (e.reveals) i.reveal = e.reveals.map((r) => r.seq);
      const m = milestones.get(e.seq);
      if (m !== undefined) i.milestone = m;
      out.push(i);
    }
    return out;
  }

  view(viewer: Viewer): ViewOf<T> {
    return this.protocol.view(this.memo.state, viewer);
  }
  legal(seat: string): Legal {
    return this.protocol.legal(this.memo.state, seat);
  }
  deadline(): number | null {
    return this.protocol.deadline(this.memo.state);
  }
  result(): ResultOf<T> | null {
    return this.protocol.result(this.memo.state);
  }
  stateHash(): string {
    return stateHash(this.memo.state);
  }

  private adopt(state: unknown): void {
    this.memo.state = this.freeze ? deepFreeze(state) : state;
  }

  private transition(
    e: { kind: 'action' | 'tick'; actor: string; payload: JsonValue; ts: number },
    t: Transition<unknown>,
  ): void {
    // Everything that can fail is computed before the first write: a refused reveal writes nothing.
    const reveals = this.reveals(t.reveal ?? []);
    const note = t.note !== undefined ? asJson(t.note) : undefined;
    this.push({
      ...e,
      ...(t.visibility ? { vis: t.visibility } : {}),
      ...(reveals.length > 0 ? { reveals } : {}),
      ...(t.milestone !== undefined ? { milestone: t.milestone } : {}),
      ...(note !== undefined ? { note } : {}),
    });
    this.adopt(t.state);
    this.closeIfOver(e.ts);
  }

  /**
   * Ends the room before its protocol is over (an admin's act): the close entry, recording who and
   * why, as the server's end writes it. Returns its seq.
   */
  end(ended: Ended, now?: number): number {
    if (this.memo.closed) throw new LocalRoomError('ROOM_CLOSED', 'the room is closed');
    this.close(this.time(now), ended);
    return this.memo.seq;
  }

  /** Once the protocol says the room is over: the close entry (seed, result, join reveals). */
  private closeIfOver(ts: number): void {
    if (this.memo.closed || !this.protocol.isOver(this.memo.state)) return;
    this.close(ts);
  }

  private close(ts: number, ended?: Ended): void {
    const result = asJson(this.protocol.result(this.memo.state) ?? null);
    const reveals = this.reveals(Object.values(this.memo.holders).map((h) => h.seq));
    this.push({
      kind: 'close',
      actor: 'system',
      payload: closePayload(this.memo.core.seed, result, ended),
      ts,
      ...(reveals.length > 0 ? { reveals } : {}),
      milestone: 'close',
    });
    this.memo.closed = true;
  }

  private reveals(seqs: readonly number[]): Reveal[] {
    try {
      return revealsOf(seqs, (seq) => this.entries[seq]);
    } catch (err) {
      if (err instanceof RevealError) throw new LocalRoomError('BAD_REVEAL', err.message);
      throw err;
    }
  }

  private push(e: {
    kind: StoredEntry['kind'];
    actor: string;
    payload: JsonValue;
    ts: number;
    vis?: Visibility;
    reveals?: Reveal[];
    milestone?: string;
    note?: JsonValue;
  }): BuiltEntry {
    const built = buildEntry(
      {
        room: this.memo.core.id,
        seq: this.nextSeq,
        ts: e.ts,
        kind: e.kind,
        actor: e.actor,
        payload: e.payload,
        vis: e.vis ?? PUBLIC,
        ...(e.reveals ? { reveals: e.reveals } : {}),
        ...(e.note !== undefined ? { note: e.note } : {}),
      },
      this.salt,
    );
    this.entries.push(built.stored);
    this.leaves.push(toHex(built.leaf));
    this.memo.frontier.append(built.leaf);
    this.memo.seq = built.stored.seq;
    this.memo.lastTs = e.ts;
    if (e.milestone !== undefined) this.milestones.push({ size: this.memo.seq + 1, milestone: e.milestone });
    return built;
  }
}
