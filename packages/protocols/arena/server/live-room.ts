import type { AnyProtocol, Legal, Viewer } from '@db8/core';
import { type ModuleRuntime, RuntimeError } from '@db8/server/kit';
import type { MatchRoom } from '../cli/game.ts';
import { Aborted } from './match-room.ts';

/**
 * A match room with seats played from outside (outside agents, signed-in people): the server plays
 * its own seats, and the others act through the room's ordinary API. Unlike the mirrored room
 * (match-room.ts) the server room is read, not predicted: moves the server did not make appear in
 * it at any moment, so this room keeps the server's state, applies the server's own moves to it at
 * once (so a game's synchronous body reads its own move back), and rereads the state after every
 * write. Time is real: nothing jumps to a deadline; `wait` ticks a deadline once the clock has
 * passed it (as the deadline scheduler also does), so an absent seat is timed out by the
 * protocol's own windows and the match always ends.
 */

export interface LiveOptions {
  protocol: AnyProtocol;
  clock: () => number;
  /** Checked before every write and while waiting: false stops the match. */
  live: () => boolean;
  /** How often `wait` rereads the room (default 250 ms). */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class LiveMatchRoom implements MatchRoom {
  private state: unknown = null;
  private seq = -1;
  private over = false;
  private readonly queue: { seat: string; action: unknown }[] = [];
  /** The server's moves the room refused (the window had passed, the seat had moved on). */
  readonly refused: string[] = [];

  private constructor(
    private readonly runtime: ModuleRuntime,
    readonly id: string,
    private readonly opts: LiveOptions,
  ) {}

  static async open(runtime: ModuleRuntime, id: string, opts: LiveOptions): Promise<LiveMatchRoom> {
    const room = new LiveMatchRoom(runtime, id, opts);
    await room.read();
    return room;
  }

  get closed(): boolean {
    return this.over || this.opts.protocol.isOver(this.state);
  }

  /** A server seat's move: applied to the state read last, queued for the next write. */
  must(seat: string, action: unknown): unknown {
    const p = this.opts.protocol;
    const parsed = p.actionSchema.safeParse(action);
    if (!parsed.success) throw new Error(`${seat}: action does not match the protocol schema`);
    const now = this.opts.clock();
    const r = p.apply(this.state, { seat, action: parsed.data, now, seq: this.seq + 1 + this.queue.length });
    if (!r.ok) throw new Error(`${seat} refused: ${r.error.code} ${r.error.message}`);
    this.state = r.state;
    this.queue.push({ seat, action: parsed.data });
    return r;
  }

  /** Never jumps: a game with outside seats waits for real time instead (`wait`). */
  advance(): unknown {
    throw new Error(`match room ${this.id} has outside seats: wait for the room, do not jump its clock`);
  }

  view(viewer: Viewer): unknown {
    return this.opts.protocol.view(this.state, viewer);
  }

  legal(seat: string): Legal {
    return this.opts.protocol.legal(this.state, seat);
  }

  /**
   * Writes the queued moves (the runtime checks each again; one it refuses is dropped and noted,
   * as a late move of any seat would be), then reads the room back.
   */
  async flush(): Promise<void> {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      if (!this.opts.live()) throw new Aborted();
      try {
        await this.runtime.act(this.id, { seat: next.seat, action: next.action });
      } catch (err) {
        if (!(err instanceof RuntimeError)) throw err;
        this.refused.push(`${next.seat}: ${err.code}`);
      }
    }
    await this.read();
  }

  async wait(): Promise<void> {
    const from = this.seq;
    await this.flush();
    const poll = this.opts.pollMs ?? 250;
    for (;;) {
      if (this.seq !== from || this.closed) return;
      if (!this.opts.live()) throw new Aborted();
      const due = this.opts.protocol.deadline(this.state) as number | null;
      const now = this.opts.clock();
      if (due !== null && now >= due) {
        // Null when the deadline scheduler ticked first: the read below sees its tick.
        await this.runtime.tick(this.id).catch((err) => {
          if (!(err instanceof RuntimeError)) throw err;
        });
      } else {
        await sleep(due === null ? poll : Math.max(1, Math.min(poll, due - now)));
      }
      await this.read();
    }
  }

  private async read(): Promise<void> {
    const r = await this.runtime.protocolState(this.id);
    this.state = r.state;
    this.seq = r.seq;
    this.over = r.closed;
  }
}
