// A test's hold on the server's match writes (the arena module's `pace` injection point): a match
// room reaching a chosen write waits there until the test lets it go, or until its drive stops
// (the server closing, its lease lost), so a test can stop or kill a server with a match half-played
// at a point it chose instead of racing the match. Shared by arena.server.int.test.ts and the
// process it kills (arena-node.ts).
import { arenaServerModule, type Pace } from '@db8/arena/server';
import type { ProtocolModule } from '@db8/server/kit';
import { arenaServerGames, builtinModules } from '../src/server-modules.ts';

interface Held {
  room: string;
  n: number;
  let: () => void;
}

export class Holds {
  private readonly held = new Map<string, Held>();
  private readonly waiters = new Set<() => void>();
  /** Rooms let go by `release` (or all, once `open`): their later writes pass. */
  private readonly passed = new Set<string>();
  private opened = false;

  /** `at(room, n)`: whether write `n` of `room` waits for the test (once a room passed, never again). */
  constructor(private readonly at: (room: string, n: number) => boolean) {}

  readonly pace: Pace = async ({ room, n, live }) => {
    if (this.opened || this.passed.has(room) || !this.at(room, n)) return;
    await new Promise<void>((resolve) => {
      const h: Held = { room, n, let: resolve };
      this.held.set(room, h);
      this.changed();
      // The drive's liveness is a flag, not an event: looked at until the test lets go or it stops.
      const look = setInterval(() => {
        if (!live()) h.let();
      }, 20);
      h.let = () => {
        clearInterval(look);
        this.held.delete(room);
        this.changed();
        resolve();
      };
    });
  };

  /** Holds the first match room to reach write `n`, and no other. */
  static first(n: number): Holds {
    let chosen: string | null = null;
    return new Holds((room, k) => {
      if (k !== n || (chosen !== null && chosen !== room)) return false;
      chosen = room;
      return true;
    });
  }

  /** The rooms waiting now. */
  rooms(): string[] {
    return [...this.held.keys()];
  }

  release(room: string): void {
    this.passed.add(room);
    this.held.get(room)?.let();
  }

  /** Holds nothing more and lets every held room go. */
  open(): void {
    this.opened = true;
    for (const h of [...this.held.values()]) h.let();
  }

  /** Resolves once `cond` holds, looked at each time a room is held or let go. */
  async until<T>(cond: (rooms: string[]) => T | undefined | false): Promise<T> {
    for (;;) {
      const v = cond(this.rooms());
      if (v) return v;
      await new Promise<void>((r) => this.waiters.add(r));
    }
  }

  private changed(): void {
    for (const w of [...this.waiters]) {
      this.waiters.delete(w);
      w();
    }
  }
}

/** The server's protocol modules with the arena's match writes paced by `pace`. */
export const modulesPacedBy = (pace: Pace): ProtocolModule[] =>
  builtinModules.map((m) =>
    m.protocol.name === 'arena' ? arenaServerModule(arenaServerGames, { pace }) : m,
  );
