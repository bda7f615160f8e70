import type { PublicEntry } from '@db8/core';
import type { ModuleRuntime } from '@db8/server/kit';
import { type DeliberationState, type DeliberationView, type Measurement, OPERATOR } from '../rules/index.ts';
import { analyseCode } from './quality.ts';
import {
  DEFAULT_LIMITS,
  interruptedResult,
  measurementOf,
  runSandboxed,
  type SandboxOptions,
  type SandboxResult,
  sandboxSupport,
} from './sandbox.ts';
import { memorySandboxRuns, type SandboxRuns } from './sandbox-runs.ts';

/**
 * The module's background side for deliberation rooms, fed by the bus:
 *
 * - **Committed-entry hook** (`onCommitted`): after entries are committed to a deliberation room,
 *   each listener gets `{room, seq, ts, fromSeq}` and the folded state after `seq` — the room's
 *   unredacted state, read from the runtime (not a view). Entries that arrive while a listener
 *   runs are coalesced: the next call covers `fromSeq..seq`. Listeners of one room run in order,
 *   one call at a time; a throwing listener is logged and does not stop the others. The storage
 *   projection (storage/applyEntry) is one such listener.
 * - **Measurer**: each code version of a code task with tests that has no measurement yet runs in
 *   the sandbox, and the operator seat records `measure {version, measurement}` (idempotent per
 *   version by its nonce). Versions are measured one at a time per server. Each run is claimed in
 *   the runs ledger first (sandbox-runs.ts): a version whose earlier run never finished (the
 *   server stopped during it) is recorded as an interrupted, failed measurement — never run again.
 */

/** How long past the sandbox's time limit a claimed run may still be recording its result. */
export const RUN_LEASE_SLACK_MS = 60_000;

export interface Committed {
  room: string;
  /** The last entry covered. */
  seq: number;
  /** Its timestamp. */
  ts: number;
  /** The first entry this call covers (the previous call's seq + 1). */
  fromSeq: number;
}

export type CommittedListener = (entry: Committed, state: DeliberationState) => void | Promise<void>;

type Log = { warn(o: object, m: string): void; info(o: object, m: string): void };

interface RoomTrack {
  projected: number;
  busy: boolean;
  dirty: boolean;
}

export class DeliberationWorker {
  readonly #listeners = new Set<CommittedListener>();
  readonly #rooms = new Map<string, RoomTrack>();
  readonly #protocolOf = new Map<string, string>();
  readonly #measuring = new Set<string>();
  readonly #dropped = new Set<string>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** Every sandbox result, by `room/version` (tests and the results route read it). */
  readonly results = new Map<string, SandboxResult>();

  constructor(
    readonly runtime: Pick<ModuleRuntime, 'getRoom' | 'act' | 'stateFor' | 'protocolState'>,
    readonly log: Log,
    readonly sandbox: SandboxOptions = {},
    readonly runs: SandboxRuns = memorySandboxRuns(),
  ) {}

  /** Adds a committed-entry listener; returns its removal. */
  onCommitted(fn: CommittedListener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** The bus handler: every entry of every room passes here. */
  entry(e: Pick<PublicEntry, 'room' | 'seq'>): void {
    if (this.#closed) return;
    this.#track(this.#isDeliberation(e.room).then((yes) => (yes ? this.poke(e.room) : undefined)));
  }

  async #isDeliberation(room: string): Promise<boolean> {
    let p = this.#protocolOf.get(room);
    if (p === undefined) {
      p = await this.runtime.getRoom(room).then(
        (r) => r.protocol,
        () => '',
      );
      this.#protocolOf.set(room, p);
    }
    return p === 'deliberation';
  }

  /** No more listener calls or measurements for this room (its debate was deleted). */
  drop(room: string): void {
    this.#dropped.add(room);
  }

  /** Runs the listeners and the measurer for a deliberation room now (coalescing). */
  poke(room: string): void {
    if (this.#dropped.has(room)) return;
    let t = this.#rooms.get(room);
    if (!t) {
      t = { projected: -1, busy: false, dirty: false };
      this.#rooms.set(room, t);
    }
    if (t.busy) {
      t.dirty = true;
      return;
    }
    t.busy = true;
    this.#track(
      this.#run(room, t).finally(() => {
        t.busy = false;
        if (t.dirty && !this.#closed) {
          t.dirty = false;
          this.poke(room);
        }
      }),
    );
  }

  async #run(room: string, t: RoomTrack): Promise<void> {
    let snap: Awaited<ReturnType<ModuleRuntime['protocolState']>>;
    try {
      snap = await this.runtime.protocolState(room);
    } catch (err) {
      this.log.warn({ err, roomId: room }, 'deliberation: state read failed');
      return;
    }
    if (snap.seq > t.projected) {
      const entry = { room, seq: snap.seq, ts: snap.ts, fromSeq: t.projected + 1 };
      for (const fn of this.#listeners) {
        try {
          await fn(entry, snap.state as DeliberationState);
        } catch (err) {
          this.log.warn(
            { err, roomId: room, seq: snap.seq },
            'deliberation: committed-entry listener failed',
          );
        }
      }
      t.projected = snap.seq;
    }
    if (!snap.closed) this.#measure(room, snap.state as DeliberationState);
  }

  #measure(room: string, state: DeliberationState): void {
    const tests = state.config.task.kind === 'code' ? state.config.task.tests : null;
    if (!tests) return;
    for (const v of state.codeVersions) {
      const key = `${room}/${v.version}`;
      if (v.measuredAt !== null || this.#measuring.has(key)) continue;
      this.#measuring.add(key);
      // One sandbox at a time per server: a queue, not a pool.
      this.#queue = this.#queue.catch(() => undefined).then(() => this.#measureOne(room, key, v, tests));
      this.#track(this.#queue);
    }
  }

  async #measureOne(
    room: string,
    key: string,
    v: DeliberationView['codeVersions'][number],
    tests: string,
  ): Promise<void> {
    if (this.#closed) return;
    const support = sandboxSupport(this.sandbox);
    if (!support.ok) {
      this.log.warn(
        { roomId: room, version: v.version, code: 'SANDBOX_UNAVAILABLE', why: support.reason },
        'deliberation: version not measured',
      );
      return;
    }
    const leaseMs = (this.sandbox.limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs) + RUN_LEASE_SLACK_MS;
    const claim = await this.runs.begin(room, v.version, Date.now(), leaseMs);
    if (claim.kind === 'busy') {
      this.#retryAt(room, key, claim.until);
      return;
    }
    let r: SandboxResult;
    let measurement: Measurement;
    if (claim.kind === 'interrupted') {
      r = interruptedResult(claim.startedAt);
      const m = measurementOf(r, v.code, await analyseCode(v.code, v.language));
      measurement = { ...m, metrics: { ...m.metrics, interrupted: 1 } };
      this.log.warn(
        { roomId: room, version: v.version, startedAt: claim.startedAt },
        'deliberation: an earlier run of this version never finished; recorded as failed, not run again',
      );
    } else {
      r = await runSandboxed({ language: v.language, source: v.code, tests }, this.sandbox);
      measurement = measurementOf(r, v.code, await analyseCode(v.code, v.language));
    }
    this.results.set(key, r);
    try {
      if (r.status === 'unsupported') {
        this.log.warn(
          { roomId: room, version: v.version, code: r.code, why: r.output },
          'deliberation: version not measured',
        );
        return;
      }
      await this.runtime.act(room, {
        seat: OPERATOR,
        action: { type: 'measure', version: v.version, measurement },
        clientNonce: `measure:v${v.version}`,
      });
    } catch (err) {
      this.log.warn({ err, roomId: room, version: v.version }, 'deliberation: measure refused');
    } finally {
      await this.runs.finish(room, v.version);
    }
  }

  /** Looks at a version again when another run's claim on it has expired. */
  #retryAt(room: string, key: string, until: number): void {
    if (this.#closed) return;
    const t = setTimeout(
      () => {
        this.#timers.delete(t);
        this.#measuring.delete(key);
        if (!this.#closed) this.poke(room);
      },
      Math.max(0, until - Date.now()) + 10,
    );
    t.unref();
    this.#timers.add(t);
  }

  #track(p: Promise<unknown>): void {
    const q = p.catch((err) => this.log.warn({ err }, 'deliberation: background work failed'));
    this.#pending.add(q);
    void q.finally(() => this.#pending.delete(q));
  }

  /** Resolves when no listener call or measurement is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await this.idle();
  }
}
