import { hashCanonical } from '@db8/core';
import {
  type CouncilAction,
  type CouncilConfig,
  type CouncilLog,
  type CouncilLogEntry,
  type CouncilState,
  council,
} from '@db8/protocols/council';

/**
 * A council run held in memory, the way the server's runtime would hold a room: it assigns seqs,
 * keeps time monotonic, folds actions and ticks through the protocol and records the log that
 * `refold` replays. A refused action here is a bug in the runner, so it throws.
 */

export class CouncilRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class LocalCouncilRoom {
  state: CouncilState;
  readonly entries: CouncilLogEntry[] = [];
  readonly genesis: CouncilLog['genesis'];
  #seq = 1;
  #last: number;

  constructor(
    config: CouncilConfig,
    seed: string,
    readonly clock: () => number,
  ) {
    const now = Math.floor(clock());
    this.genesis = { config, seed, now };
    this.#last = now;
    this.state = council.setup(config, { seats: council.seats(config), seed, now });
  }

  /** The current time, never earlier than the last entry's. */
  now(): number {
    this.#last = Math.max(this.#last, Math.floor(this.clock()));
    return this.#last;
  }

  act(seat: string, action: CouncilAction): { ok: true } | { ok: false; code: string; message: string } {
    const parsed = council.actionSchema.parse(action);
    const now = this.now();
    const seq = this.#seq;
    const r = council.apply(this.state, { seat, action: parsed, now, seq });
    if (!r.ok) return { ok: false, code: r.error.code, message: r.error.message };
    this.state = r.state;
    this.#seq += 1;
    this.entries.push({ kind: 'action', seq, now, seat, action: parsed });
    return { ok: true };
  }

  must(seat: string, action: CouncilAction): void {
    const r = this.act(seat, action);
    if (!r.ok) throw new CouncilRunError(r.code, `${seat} ${action.type} refused: ${r.code} ${r.message}`);
  }

  /** Tick at the current time; true when something was due and the state moved on. */
  tick(): boolean {
    const now = this.now();
    const seq = this.#seq;
    const t = council.tick(this.state, now, seq);
    if (!t) return false;
    this.state = t.state;
    this.#seq += 1;
    this.entries.push({ kind: 'tick', seq, now });
    return true;
  }

  log(): CouncilLog {
    return {
      format: 'db8.council.log/v1',
      protocol: 'council',
      version: council.version,
      genesis: this.genesis,
      entries: this.entries,
      stateSha256: hashCanonical(this.state),
    };
  }
}
