import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_LEASE_MS, type ModuleContext } from '@db8/server/kit';
import { type Games, gameFor } from '../cli/game.ts';
import { type ArenaConfig, ArenaConfigSchema } from '../rules/index.ts';
import { TournamentWork } from './cluster.ts';
import type { Pace } from './match-room.ts';

/**
 * The server's tournament runner: every open arena room whose config says `runBy: server` and
 * whose game and entrants this server can play is worked on by every process of the cluster that
 * can, each match played by one of them (cluster.ts: a lease per match, `concurrency` slots per
 * tournament across the cluster). Each process looks for open tournaments on start, whenever a
 * tournament is created (the bus's genesis entries), and every `DB8_ARENA_SCAN_MS` (default 5 s: how
 * soon a process takes over a match from one that died, with the leases' time,
 * `DB8_ARENA_LEASE_MS`, default 15 s); within a tournament it moves on when the tournament's log
 * does (a schedule, a result: the bus), not at the next scan. A clean stop releases every lease at
 * once, a crash after its time.
 */

/** This process's name in logs and on the match rooms it opens: host, pid and a tag per runner. */
const nodeName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

export interface RunnerOptions {
  scanMs: number;
  leaseMs: number;
  stepDelayMs: number;
  /** Awaited before each match write instead of the step delay: a test's hold (index.ts). */
  pace?: Pace;
  /** This process's name (`DB8_ARENA_NODE`, default host:pid:tag): logs, and the match rooms it opens. */
  node: string;
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
    node: env.DB8_ARENA_NODE?.trim() || nodeName(),
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

export class TournamentRunner {
  private readonly held = new Map<string, TournamentWork>();
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
    // rather than at the next scan. An entry of a tournament worked on here (a round, a result):
    // there may be a match to play or a round to write.
    this.unsubscribe = this.ctx.app.bus.subscribe('*', (e) => {
      if (e.seq === 0 && (e.payload as { protocol?: unknown } | undefined)?.protocol === 'arena') this.scan();
      else this.held.get(e.room)?.kick();
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
      if (this.stopped || this.failed.has(r.id)) continue;
      const known = this.held.get(r.id);
      if (known) {
        known.kick(); // the safety net: a match whose player died is free once its lease expires
        continue;
      }
      if (!this.playable(r.id, r.config)) continue;
      this.work(r.id, r.config);
    }
    // Closed elsewhere: nothing left to do here.
    for (const id of [...this.held.keys()]) if (!open.has(id)) await this.release(id);
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

  private work(id: string, config: ArenaConfig): void {
    const game = gameFor(this.games, config, true);
    if (typeof game === 'string') return;
    const work = new TournamentWork(id, {
      runtime: this.ctx.runtime,
      drive: {
        runtime: this.ctx.runtime,
        game,
        clock: () => this.ctx.runtime.now(),
        ...this.pace(),
        node: this.opts.node,
      },
      node: this.opts.node,
      leaseMs: this.opts.leaseMs,
      log: this.log,
    });
    this.held.set(id, work);
    work.finished
      .catch((err) => {
        this.failed.add(id);
        this.log.error({ err, room: id }, 'arena: the tournament stopped with an error');
      })
      .finally(() => {
        // Done (closed or given up): forget it, so a later scan does not hold it.
        if (this.held.get(id) === work) this.held.delete(id);
      });
    work.kick();
  }

  private pace(): { pace?: Pace } {
    if (this.opts.pace) return { pace: this.opts.pace };
    const ms = this.opts.stepDelayMs;
    return ms > 0 ? { pace: () => new Promise((r) => setTimeout(r, ms)) } : {};
  }

  private async release(id: string): Promise<void> {
    const work = this.held.get(id);
    if (!work) return;
    this.held.delete(id);
    await work.stop();
  }
}
