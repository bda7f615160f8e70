import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.ts';

/**
 * Work a cluster of server processes on one store must do once (e.g. a swarm node's fold): every
 * process keeps trying the named lease; the one holding it does the work (`lead`), renewing it every
 * third of its time; the others wait. A holder that dies or stops renewing loses it after `ttlMs`
 * and another process takes over; a clean stop releases it at once. A renewal that fails (the store
 * unreachable) counts as lost: the work stops rather than risk two processes doing it.
 */

export interface LeaseOptions {
  /** How long a taken lease lasts without renewal (default 15 s). */
  ttlMs?: number;
  /** How often to try or renew it (default a third of `ttlMs`). */
  retryMs?: number;
  /** Starts the work: this process now holds the lease. */
  lead(): Promise<void>;
  /** Stops the work: the lease is lost (or being released). */
  follow(): Promise<void>;
}

export interface LeaseKeeper {
  /** Whether this process holds the lease now. */
  readonly held: boolean;
  readonly holder: string;
  /** Stops trying, stops the work and releases the lease. */
  stop(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 15_000;

/** Keeps trying lease `name`; resolves after the first try, so a lone process leads from the start. */
export async function keepLease(store: Store, name: string, opts: LeaseOptions): Promise<LeaseKeeper> {
  const ttlMs = opts.ttlMs ?? DEFAULT_LEASE_MS;
  const holder = randomUUID();
  let held = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();

  const attempt = async () => {
    if (stopped) return;
    const won = await store.leases.take(name, holder, ttlMs).catch(() => false);
    if (won && !held) {
      held = true;
      await opts.lead().catch(() => {});
    } else if (!won && held) {
      held = false;
      await opts.follow().catch(() => {});
    }
  };
  const loop = () => {
    timer = setTimeout(
      () => {
        inflight = attempt();
        void inflight.finally(() => {
          if (!stopped) loop();
        });
      },
      Math.max(50, opts.retryMs ?? Math.floor(ttlMs / 3)),
    );
    timer.unref();
  };
  await attempt();
  loop();
  return {
    get held() {
      return held;
    },
    holder,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inflight;
      if (held) {
        held = false;
        await opts.follow().catch(() => {});
        await store.leases.release(name, holder).catch(() => {});
      }
    },
  };
}
