import { DEFAULT_LEASE_MS, keepLease, type LeaseKeeper, type ModuleContext } from '@db8/server/kit';
import { type Games, gameFor } from '../cli/game.ts';
import { type ArenaConfig, ArenaConfigSchema } from '../rules/index.ts';
import { Aborted } from './match-room.ts';
import { driveTournament } from './tournament.ts';

/**
 * The server's tournament runner: every open arena room whose config says `runBy: server` and
 * whose game and entrants this server can play is driven by exactly one process of the cluster —
 * the holder of the store lease `arena:<room>` (one lease per tournament, so a cluster's
 * tournaments spread over its nodes). Each process looks for open tournaments on start, whenever a
 * tournament is created (the bus's genesis entries), and every `DB8_ARENA_SCAN_MS` (default 5 s: how soon
 * a process takes over from one that died, with the lease's time, `DB8_ARENA_LEASE_MS`, default
 * 15 s). The holder drives the tournament from its log (tournament.ts); a clean stop releases the
 * lease at once, a crash after its time.
 */

export interface RunnerOptions {
  scanMs: number;
  leaseMs: number;
  stepDelayMs: number;
}

export function runnerOptions(env: ModuleContext['env']): RunnerOptions {
  const n = (v: string | undefined, d: number, min: number) => {
    const x = Number(v);
    return v !== undefined && Number.isFinite(x) && x >= min ? x : d;
  };
  return {
    scanMs: n(env.DB8_ARENA_SCAN_MS, 5000, 50),
    leaseMs: n(env.DB8_ARENA_LEASE_MS, DEFAULT_LEASE_MS, 200),
    stepDelayMs: n(env.DB8_ARENA_STEP_DELAY_MS, 0, 0),
  };
}

export type RunnerLog = {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
};

/** The games the server plays, and whether it can play a model entrant (null: yes; else why not). */
export interface RunnerGames {
  games: Games;
  modelReady?(entrant: { provider: string; model: string }): string | null;
}

interface Held {
  keeper: LeaseKeeper | null;
  /** This process drives it now. */
  live: boolean;
  drive: Promise<void> | null;
}

export class TournamentRunner {
  private readonly held = new Map<string, Held>();
  /** Tournaments this process gave up on (a match failed every attempt): logged, left to the others. */
  private readonly failed = new Set<string>();
  /** Tournaments left to their organizer, each said once in the log. */
  private readonly waiting = new Set<string>();
  private readonly games: Games;
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly setup: RunnerGames,
    private readonly opts: RunnerOptions,
    private readonly log: RunnerLog,
  ) {
    this.games = setup.games;
  }

  start(): void {
    // A new tournament anywhere in the cluster (its public genesis names the protocol): look at once
    // rather than at the next scan.
    this.unsubscribe = this.ctx.app.bus.subscribe('*', (e) => {
      if (e.seq === 0 && (e.payload as { protocol?: unknown } | undefined)?.protocol === 'arena') this.scan();
    });
    const loop = () => {
      this.timer = setTimeout(() => {
        this.scan();
        if (!this.stopped) loop();
      }, this.opts.scanMs);
      this.timer.unref();
    };
    this.scan();
    loop();
  }

  /** Stops looking, stops every drive at its next write and releases the leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.scanning?.catch(() => {});
    await Promise.all([...this.held.keys()].map((id) => this.release(id)));
  }

  /** Whether this process drives the tournament now. */
  drives(id: string): boolean {
    return this.held.get(id)?.live === true;
  }

  private scan(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = this.scanOnce()
      .catch((err) => this.log.warn({ err }, 'arena: scan for open tournaments failed'))
      .finally(() => {
        this.scanning = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.scan();
        }
      });
  }

  private async scanOnce(): Promise<void> {
    const open = new Set<string>();
    const rooms = await this.ctx.runtime.listRooms({ protocol: 'arena', status: 'open', limit: 500 });
    for (const r of rooms) {
      open.add(r.id);
      if (this.stopped || this.held.has(r.id) || this.failed.has(r.id)) continue;
      if (!this.playable(r.id, r.config)) continue;
      const entry: Held = { keeper: null, live: false, drive: null };
      this.held.set(r.id, entry);
      entry.keeper = await keepLease(this.ctx.runtime.store, `arena:${r.id}`, {
        ttlMs: this.opts.leaseMs,
        lead: async () => this.lead(r.id, entry),
        follow: async () => this.follow(entry),
      });
    }
    // Closed (here or elsewhere): nothing left to hold.
    for (const id of [...this.held.keys()]) if (!open.has(id) && !this.drives(id)) await this.release(id);
  }

  /**
   * Scripted entrants, and model entrants of a game that plays models (`models: true`) whose
   * provider this server configures (`modelReady`: its calls then go through the server's metered,
   * capped and recorded providers). Anything else waits for its organizer, and the log says why.
   */
  private playable(id: string, config: unknown): config is ArenaConfig {
    const c = ArenaConfigSchema.safeParse(config);
    if (!c.success || c.data.runBy !== 'server') return false;
    const why = this.unplayable(c.data);
    if (why !== null && !this.waiting.has(id)) {
      this.waiting.add(id);
      this.log.info({ room: id, reason: why }, 'arena: tournament left to its organizer');
    }
    return why === null;
  }

  private unplayable(config: ArenaConfig): string | null {
    const game = gameFor(this.games, config, true);
    if (typeof game === 'string') return game;
    for (const e of config.entrants) {
      if (e.kind === 'scripted') continue;
      // Their seats are theirs to play (outside.ts); the server seats them and waits.
      if (e.kind !== 'model' && game.outside) continue;
      if (e.kind !== 'model') return `entrant ${e.name} is not played by the server`;
      if (!game.models) return `entrant ${e.name} is a model: ${config.game} plays scripted entrants only`;
      const why = this.setup.modelReady ? this.setup.modelReady(e) : 'this server plays no model entrants';
      if (why !== null) return `entrant ${e.name}: ${why}`;
    }
    return null;
  }

  private async lead(id: string, entry: Held): Promise<void> {
    if (this.stopped) return;
    const room = await this.ctx.runtime.getRoom(id);
    const config = ArenaConfigSchema.parse(room.config);
    const game = gameFor(this.games, config, true);
    if (typeof game === 'string') return;
    entry.live = true;
    entry.drive = driveTournament(
      {
        runtime: this.ctx.runtime,
        game,
        clock: () => this.ctx.runtime.now(),
        live: () => entry.live && !this.stopped,
        stepDelayMs: this.opts.stepDelayMs,
      },
      id,
    )
      .catch((err) => {
        if (err instanceof Aborted) return;
        this.failed.add(id);
        this.log.error({ err, room: id }, 'arena: the tournament stopped with an error');
      })
      .finally(() => {
        entry.live = false;
        // Done (closed or given up): let the lease go now rather than at the next scan.
        if (!this.stopped) void this.release(id);
      });
  }

  private async follow(entry: Held): Promise<void> {
    entry.live = false;
    await entry.drive;
    entry.drive = null;
  }

  private async release(id: string): Promise<void> {
    const entry = this.held.get(id);
    if (!entry) return;
    this.held.delete(id);
    entry.live = false;
    await entry.keeper?.stop();
    await entry.drive;
  }
}
