import { Budget, type BudgetLimits, type Provider, ProviderConfigError, resolveProvider } from '@db8/agents';
import type { Bus } from '../bus/types.ts';
import { ApiError } from '../errors.ts';
import { driverIdentity, ensureDriverPrincipal } from '../kit/identities.ts';
import type { ProtocolModule } from '../kit/module.ts';
import type { Runtime } from '../runtime/index.ts';
import { redactDriverSpecs } from './redact.ts';
import { type DriverSpec, type Drivers, type ProviderFactoryOptions, providerFor } from './spec.ts';
import type { DriverStore } from './store.ts';

/**
 * Runs the driven seats of every open room in this server. It listens to the bus; whenever a
 * driven room moves it reads each driven seat's own view and legal actions (runtime.stateFor, as
 * any client would), asks the seat's agent for decisions, and submits them with runtime.act under
 * an idempotency key. Every call — success, failed call, refused action — is a driver_calls row
 * and a log line. A failure submits nothing (or the protocol's own failure record, when its agent
 * asks for one); the protocol's deadline decides what happens next.
 */

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void };

interface Seat {
  spec: DriverSpec;
  provider: Provider;
  done: Set<string>;
  busy: boolean;
  dirty: boolean;
}

interface Room {
  module: ProtocolModule;
  roles: ReadonlyMap<string, string>;
  seats: Map<string, Seat>;
  abort: AbortController;
}

export interface DriverHostOptions extends ProviderFactoryOptions {
  runtime: Runtime;
  bus: Pick<Bus, 'subscribe'>;
  drivers: DriverStore;
  /** The protocol modules by name: each driven room is played by its module's agent and cast. */
  modules: ReadonlyMap<string, ProtocolModule>;
  log: Log;
  /** Ask the runtime to tick after each action, so a stage that is complete moves at once. */
  tickAfterAct?: boolean;
}

export class DriverHost {
  readonly #rooms = new Map<string, Room>();
  readonly #unsub: () => void;
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  constructor(readonly opts: DriverHostOptions) {
    this.#unsub = opts.bus.subscribe('*', (entry) => {
      if (this.#rooms.has(entry.room)) this.poke(entry.room);
    });
  }

  /**
   * Refuses (BAD_DRIVERS, 400) before a room exists: a protocol without an agent, a provider this
   * server cannot configure, a scripted seat of a protocol without a scripted cast.
   */
  check(protocol: string, specs: Drivers): void {
    const module = this.opts.modules.get(protocol);
    if (!module?.agent) throw new ApiError(400, 'BAD_DRIVERS', `no drivers for protocol ${protocol}`);
    for (const [seat, spec] of Object.entries(specs)) {
      try {
        const r = resolveProvider({
          env: this.opts.env,
          provider: spec.provider,
          ...(spec.model ? { model: spec.model } : {}),
          ...(spec.base_url ? { baseUrl: spec.base_url } : {}),
          ...(spec.api_key_env ? { apiKeyEnv: spec.api_key_env } : {}),
        });
        if (r.kind === 'scripted' && !module.scripted)
          throw new ApiError(400, 'BAD_DRIVERS', `${seat}: protocol ${protocol} has no scripted cast`);
      } catch (err) {
        if (err instanceof ProviderConfigError)
          throw new ApiError(400, 'BAD_DRIVERS', `${seat}: ${err.message}`);
        throw err;
      }
    }
  }

  /** Store the specs (new room) and start driving. */
  async attach(
    roomId: string,
    specs: Record<string, DriverSpec>,
    roomBudget: BudgetLimits | undefined,
    persist = true,
  ): Promise<void> {
    const room = await this.opts.runtime.getRoom(roomId);
    const module = this.opts.modules.get(room.protocol);
    if (!module?.agent) return;
    const roles = new Map(room.seats.map((s) => [s.id, s.role]));
    this.opts.log.info({ roomId, drivers: redactDriverSpecs(specs) }, 'drivers attached');
    if (persist) {
      const now = this.opts.runtime.now();
      for (const [seat, spec] of Object.entries(specs)) await this.opts.drivers.put(roomId, seat, spec, now);
      if (roomBudget) await this.opts.drivers.putRoomBudget(roomId, roomBudget, now);
    }
    const seatLimits = Object.fromEntries(
      Object.entries(specs).flatMap(([s, spec]) => (spec.budget ? [[s, spec.budget]] : [])),
    );
    // One budget per room: room limits hold across all its driven seats.
    const budget = new Budget({ ...(roomBudget ? { room: roomBudget } : {}), seats: seatLimits });
    const seats = new Map<string, Seat>();
    for (const [seat, spec] of Object.entries(specs)) {
      seats.set(seat, {
        spec,
        provider: providerFor(
          spec,
          budget,
          this.opts,
          module.scripted?.(roles.get(seat) ?? '', this.opts.env),
        ),
        done: new Set(),
        busy: false,
        dirty: false,
      });
    }
    if (persist && module.holdDrivenSeats) await this.#holdSeats(roomId, specs);
    this.#rooms.set(roomId, { module, roles, seats, abort: new AbortController() });
    this.poke(roomId);
  }

  /**
   * Joins each driven seat with the driver's own principal (ProtocolModule.holdDrivenSeats): one
   * per (provider, model, persona, seat), so a seat's record carries over from room to room.
   */
  async #holdSeats(roomId: string, specs: Drivers): Promise<void> {
    const { runtime, log } = this.opts;
    for (const [seat, spec] of Object.entries(specs)) {
      const who = driverIdentity({ ...spec, seat });
      try {
        const id = await ensureDriverPrincipal(runtime.store, who, runtime.now());
        await runtime.join(roomId, { seat, principal: id });
      } catch (err) {
        // The seat stays driven anyway, only without a named holder.
        log.warn({ err, roomId, seat }, 'drivers: could not hold the seat');
      }
    }
  }

  /** Seats played by a driver, per room: they are taken, never joined by a client. */
  drivenSeats(roomIds: readonly string[]): Promise<Map<string, Set<string>>> {
    return this.opts.drivers.drivenSeats(roomIds);
  }

  /** Pick up the driven rooms that are still open (server restart). */
  async resume(): Promise<number> {
    const ids = await this.opts.drivers.rooms();
    for (const id of ids) {
      if (this.#rooms.has(id)) continue;
      const specs = await this.opts.drivers.forRoom(id);
      const budget = await this.opts.drivers.roomBudget(id);
      await this.attach(id, specs, budget ?? undefined, false);
    }
    return ids.length;
  }

  driven(roomId: string): string[] {
    return [...(this.#rooms.get(roomId)?.seats.keys() ?? [])];
  }

  poke(roomId: string): void {
    const room = this.#rooms.get(roomId);
    if (!room || this.#closed) return;
    for (const [seat, s] of room.seats) this.#kick(roomId, room, seat, s);
  }

  /**
   * Drives one seat, or marks it dirty when it is already running; a dirty seat runs again when it
   * finishes. Only that seat: re-poking the whole room from here made idle seats wake each other
   * for ever (a microtask ping-pong that starved the event loop).
   */
  #kick(roomId: string, room: Room, seat: string, s: Seat): void {
    if (this.#closed) return;
    if (s.busy) {
      s.dirty = true;
      return;
    }
    s.busy = true;
    const p = this.#drive(roomId, room, seat, s).finally(() => {
      s.busy = false;
      this.#pending.delete(p);
      if (s.dirty && this.#rooms.get(roomId) === room) {
        s.dirty = false;
        this.#kick(roomId, room, seat, s);
      }
    });
    this.#pending.add(p);
  }

  /** Resolves when no driver call is in flight (tests). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #drive(roomId: string, room: Room, seat: string, s: Seat): Promise<void> {
    const { runtime, log } = this.opts;
    const agent = room.module.agent;
    if (!agent) return;
    for (let guard = 0; guard < 64 && !this.#closed; guard++) {
      let st: Awaited<ReturnType<Runtime['stateFor']>>;
      try {
        st = await runtime.stateFor(roomId, { kind: 'seat', seat });
      } catch (err) {
        log.warn({ err, roomId, seat }, 'driver: state read failed');
        return;
      }
      if (st.status !== 'open') {
        this.#detachIfClosed(roomId);
        return;
      }
      const legal = st.legal ?? { actions: [] };
      const decisions = agent({
        roomId,
        seat,
        role: room.roles.get(seat) ?? null,
        view: st.view,
        legal: legal.actions as unknown[],
        turnToken: legal.turnToken ?? null,
        persona: s.spec.persona ?? null,
        now: runtime.now(),
      }).filter((d) => !s.done.has(d.key));
      if (decisions.length === 0) return;
      for (const d of decisions) {
        s.done.add(d.key);
        await this.#run(roomId, room, seat, s, d.key, d);
      }
    }
  }

  async #run(roomId: string, room: Room, seat: string, s: Seat, key: string, d: { run: SeatAgentRun }) {
    const { runtime, drivers, log } = this.opts;
    const outcome = await d.run(s.provider, room.abort.signal);
    let actedSeq: number | null = null;
    let error = outcome.error;
    if (outcome.action !== null) {
      try {
        const ack = await actRetrying(runtime, roomId, {
          seat,
          action: outcome.action,
          clientNonce: `drv:${key}`,
        });
        actedSeq = ack.seq;
        if (this.opts.tickAfterAct !== false) await runtime.tick(roomId).catch(() => null);
      } catch (err) {
        const e = err as { code?: string; message?: string };
        error = { code: `ACT_${e.code ?? 'FAILED'}`, message: e.message ?? String(err) };
      }
    }
    for (const [i, r] of (outcome.calls ?? []).entries()) {
      const earlier = {
        roomId,
        seat,
        decision: `${key}#${i + 1}`,
        ok: r.ok,
        error: r.error ? { code: r.error.code, message: r.error.message } : null,
        actedSeq: null,
        record: r,
        now: runtime.now(),
      };
      await drivers
        .record(earlier)
        .catch((err) => log.warn({ err, roomId, seat }, 'driver: call not recorded'));
    }
    const ok = error === null;
    const row = {
      roomId,
      seat,
      decision: key,
      ok,
      error,
      actedSeq,
      record: outcome.record,
      now: runtime.now(),
    };
    await drivers.record(row).catch((err) => log.warn({ err, roomId, seat }, 'driver: call not recorded'));
    const usage = outcome.record?.usage;
    if (ok) log.info({ roomId, seat, decision: key, seq: actedSeq, usage }, 'driver acted');
    else log.warn({ roomId, seat, decision: key, error, seq: actedSeq, usage }, 'driver call failed');
  }

  #detachIfClosed(roomId: string): void {
    const room = this.#rooms.get(roomId);
    if (!room) return;
    room.abort.abort();
    this.#rooms.delete(roomId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsub();
    for (const r of this.#rooms.values()) r.abort.abort();
    await Promise.allSettled([...this.#pending]);
    this.#rooms.clear();
  }
}

type SeatAgentRun = import('./agent.ts').Decision['run'];

/**
 * runtime.act, resent (same nonce, so at most once in the log) when cluster nodes kept winning the
 * room's next seq: a lost race is no reason to record the model's move as a failure.
 */
export async function actRetrying(runtime: Runtime, roomId: string, input: Parameters<Runtime['act']>[1]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runtime.act(roomId, input);
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'CONFLICT_RETRY_EXHAUSTED' || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 180)));
    }
  }
}
