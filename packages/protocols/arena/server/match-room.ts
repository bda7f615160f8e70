import { type AnyProtocol, type Legal, LocalRoom, type Viewer } from '@db8/core';
import type { ModuleRuntime } from '@db8/server/kit';
import type { MatchRoom } from '../cli/game.ts';

/**
 * A match room on the server that a game's synchronous `play` can drive. Every input is folded at
 * once in a mirror (core's LocalRoom: the same protocol, config, seed and genesis time, so the same
 * fold as the server's) — which answers `closed`, `view` and `legal` and refuses a bad move on the
 * spot — and queued; `flush` writes the queue, in order and at the mirror's instants, to the real
 * room, whose runtime checks every input again. The server room is the record; the mirror is only
 * the player's own copy of it, like a client's. Ticks are written at the mirror's instant
 * (`advance` jumps to the next deadline, as `db8 arena run` does), so a match does not wait out its
 * windows in real time.
 */

type Input = { kind: 'act'; seat: string; action: unknown; now: number } | { kind: 'tick'; now: number };

/**
 * Awaited before each write of a match room (`n`: 1 for the room's first write): the runner's
 * `DB8_ARENA_STEP_DELAY_MS` wait, or one a test injects (`arenaServerModule`'s `pace`) to hold a
 * match at a chosen write. `live` is the drive's: once false, the write that follows is not made.
 */
export type Pace = (write: { room: string; n: number; live: () => boolean }) => Promise<void>;

/** The runner stopped driving the match (lease lost, server closing): not a failure of the match. */
export class Aborted extends Error {
  constructor() {
    super('the tournament is no longer driven here');
    this.name = 'Aborted';
  }
}

export interface MirrorOptions {
  protocol: AnyProtocol;
  config: unknown;
  seed: string;
  /** The server room's genesis instant. */
  now: number;
  clock: () => number;
  /** Checked before every write: false stops the match. */
  live: () => boolean;
  /** Awaited before each write (tests and demos: a match seen in play, or held at a write). */
  pace?: Pace;
}

export class MirroredMatchRoom implements MatchRoom {
  private readonly mirror: LocalRoom;
  private readonly queue: Input[] = [];
  private writes = 0;

  constructor(
    private readonly runtime: ModuleRuntime,
    readonly roomId: string,
    private readonly opts: MirrorOptions,
  ) {
    this.mirror = new LocalRoom({
      protocol: opts.protocol,
      config: opts.config,
      seed: opts.seed,
      now: opts.now,
      id: roomId,
    });
  }

  get id(): string {
    return this.roomId;
  }

  get closed(): boolean {
    return this.mirror.closed;
  }

  /** The mirror's result (null until its protocol is over): the server's must equal it. */
  result(): unknown {
    return this.mirror.result();
  }

  must(seat: string, action: unknown): unknown {
    const now = this.mirror.time(this.opts.clock());
    const r = this.mirror.must(seat, action, now);
    this.queue.push({ kind: 'act', seat, action, now });
    return r;
  }

  advance(): unknown {
    const r = this.mirror.advance();
    if (r) this.queue.push({ kind: 'tick', now: this.mirror.lastTs });
    return r;
  }

  view(viewer: Viewer): unknown {
    return this.mirror.view(viewer);
  }

  legal(seat: string): Legal {
    return this.mirror.legal(seat);
  }

  /** Writes the queued inputs to the server room, in order; throws when one is refused there. */
  async flush(): Promise<void> {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      await this.opts.pace?.({ room: this.roomId, n: ++this.writes, live: this.opts.live });
      if (!this.opts.live()) throw new Aborted();
      if (next.kind === 'act') {
        await this.runtime.act(this.roomId, { seat: next.seat, action: next.action, now: next.now });
      } else {
        // Null when the deadline scheduler ticked first (real time passed the deadline): the same
        // fold at a later instant. A real divergence is refused by a later write, or caught when
        // the runner compares the server's result with the mirror's.
        await this.runtime.tick(this.roomId, next.now);
      }
    }
  }
}
