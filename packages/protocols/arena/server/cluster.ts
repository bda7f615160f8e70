import { keepLease, type ModuleRuntime } from '@db8/server/kit';
import { type ArenaState, legalFor, type Match, ORGANIZER } from '../rules/index.ts';
import { Aborted } from './match-room.ts';
import { type DriveOptions, organizer, playMatch } from './tournament.ts';

/**
 * One process's share of one tournament. Every process of the cluster that can play the tournament
 * works on it at once, each match played by whichever process claims it, with leases in the store:
 *
 * - `arena:<room>:node:<node>` — held while this process works on the tournament: how many
 *   processes share it (the nodes that cannot play it do not count);
 * - `arena:<room>:slot:<k>`, k < `concurrency` — one per match in play, taken before a match and let
 *   go after its result: at most `concurrency` matches are in play across the cluster, whatever the
 *   number of processes. A process takes at most ⌈concurrency / nodes⌉ slots, so the others get theirs;
 * - `arena:<room>:match:<match>` — the match's own: only its holder opens, plays, ends or reports the
 *   match's rooms. A holder that dies loses it after its time, and the next holder ends the room
 *   it left half-played and replays the match (`-r2`), as a restart does (tournament.ts).
 *
 * The organizer's writes (the round that is due, the close) are made by whichever process finds
 * nothing left to play; the rules refuse a schedule that is not due and a second result, so two
 * processes racing write each once. Work is started by `kick`: on the tournament's own entries (the
 * bus: a schedule or a result, this node's or, over NATS, another's), when a match of this process
 * ends, and by the runner's scan, which remains the safety net for a takeover.
 */

export interface WorkOptions {
  runtime: ModuleRuntime;
  drive: Omit<DriveOptions, 'live'>;
  /** This process's name in the logs and on the match rooms it opens (`createdBy: arena@<node>`). */
  node: string;
  leaseMs: number;
  log: { info(o: object, m: string): void };
}

interface Claim {
  live(): boolean;
  release(): Promise<void>;
}

/** Takes lease `name` if it is free: renewed while held, null if another process holds it. */
async function claim(runtime: ModuleRuntime, name: string, ttlMs: number): Promise<Claim | null> {
  let lost = false;
  const keeper = await keepLease(runtime.store, name, {
    ttlMs,
    lead: async () => {},
    follow: async () => {
      lost = true; // once lost, never trusted again: another process may have played in between
    },
  });
  if (!keeper.held) {
    await keeper.stop();
    return null;
  }
  return { live: () => !lost && keeper.held, release: () => keeper.stop() };
}

export class TournamentWork {
  private readonly playing = new Map<string, Promise<void>>();
  private presence: Claim | null = null;
  private stepping: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private error: unknown;
  /** Settles when the tournament is closed (done) or this process gives up on it (an error). */
  readonly finished: Promise<void>;
  private finish!: (err?: unknown) => void;

  constructor(
    private readonly room: string,
    private readonly o: WorkOptions,
  ) {
    this.finished = new Promise<void>((resolve, reject) => {
      this.finish = (err) => (err === undefined ? resolve() : reject(err));
    });
    this.finished.catch(() => {});
  }

  private get prefix(): string {
    return `arena:${this.room}`;
  }

  private live = () => !this.stopped;

  /** Looks at the tournament again: plays what it may, or writes the organizer's next entry. */
  kick(): void {
    if (this.stopped) return;
    if (this.stepping) {
      this.again = true;
      return;
    }
    this.stepping = this.step()
      .catch((err) => this.fail(err))
      .finally(() => {
        this.stepping = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops every match of this process at its next write and lets every lease go. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.stepping;
    await Promise.all(this.playing.values());
    await this.presence?.release();
    this.presence = null;
    this.finish(this.error);
  }

  /** A match failed every attempt (a deterministic failure): this process leaves the tournament. */
  private fail(err: unknown): void {
    if (this.stopped || err instanceof Aborted) return;
    this.error = err;
    void this.stop();
  }

  private async step(): Promise<void> {
    this.presence ??= await claim(this.o.runtime, `${this.prefix}:node:${this.o.node}`, this.o.leaseMs);
    const { state, closed } = await this.o.runtime.protocolState(this.room);
    if (closed) return void this.stop();
    const s = state as ArenaState;
    const open = s.matches.filter((m) => !s.results[m.id]);
    if (open.length === 0) {
      const due = legalFor(s, ORGANIZER).actions.find((a) => a.type === 'schedule');
      await organizer({ ...this.o.drive, live: this.live }, this.room, due ?? { type: 'close' });
      this.again = true; // read the log again: a round to play, or closed
      return;
    }
    const nodes = Math.max(1, (await this.o.runtime.store.leases.live(`${this.prefix}:node:`)).length);
    const share = Math.ceil(s.config.concurrency / nodes);
    const free = open.filter((m) => !this.playing.has(m.id));
    while (free.length > 0 && this.playing.size < share && !this.stopped) {
      const slot = await this.takeSlot(s.config.concurrency);
      if (!slot) return;
      const taken = await this.takeMatch(free);
      if (!taken) return void (await slot.release());
      const { match, lease } = taken;
      this.playing.set(
        match.id,
        this.play(s, match, () => slot.live() && lease.live())
          .catch((err) => this.fail(err))
          .finally(async () => {
            await lease.release();
            await slot.release();
            this.playing.delete(match.id);
            this.kick();
          }),
      );
    }
  }

  private async takeSlot(concurrency: number): Promise<Claim | null> {
    const held = new Set((await this.o.runtime.store.leases.live(`${this.prefix}:slot:`)).map((l) => l.name));
    for (let k = 0; k < concurrency && !this.stopped; k++) {
      const name = `${this.prefix}:slot:${k}`;
      if (held.has(name)) continue;
      const c = await claim(this.o.runtime, name, this.o.leaseMs);
      if (c) return c;
    }
    return null;
  }

  /** The first of `free` whose lease this process takes (removed from `free`), or null. */
  private async takeMatch(free: Match[]): Promise<{ match: Match; lease: Claim } | null> {
    while (free.length > 0 && !this.stopped) {
      const match = free.shift()!;
      const lease = await claim(this.o.runtime, `${this.prefix}:match:${match.id}`, this.o.leaseMs);
      if (!lease) continue;
      // Reported while we were claiming (by the process that just let it go): nothing to play.
      const { state } = await this.o.runtime.protocolState(this.room);
      if ((state as ArenaState).results[match.id]) {
        await lease.release();
        continue;
      }
      return { match, lease };
    }
    return null;
  }

  private async play(s: ArenaState, m: Match, held: () => boolean): Promise<void> {
    const live = () => held() && !this.stopped;
    const room = await playMatch({ ...this.o.drive, live }, this.room, s, m);
    this.o.log.info(
      { tournament: this.room, match: m.id, room, node: this.o.node },
      'arena: match played on this node',
    );
  }
}
