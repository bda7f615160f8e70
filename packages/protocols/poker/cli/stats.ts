import type { HandSummary } from '../rules/index.ts';

/** Win rates in big blinds per 100 hands, with a normal-approximation 95% confidence interval. */
export interface WinRate {
  hands: number;
  /** Total chips won (+) or lost (−). */
  net: number;
  bb100: number;
  /** Half-width of the 95% interval of bb/100 (∞ below two hands). */
  ci95: number;
}

export function winRate(nets: readonly number[], bigBlind: number): WinRate {
  const n = nets.length;
  const net = nets.reduce((a, b) => a + b, 0);
  if (n === 0 || bigBlind <= 0) return { hands: n, net, bb100: 0, ci95: Number.POSITIVE_INFINITY };
  const mean = net / n / bigBlind;
  if (n < 2) return { hands: n, net, bb100: mean * 100, ci95: Number.POSITIVE_INFINITY };
  let ss = 0;
  for (const x of nets) ss += (x / bigBlind - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  return { hands: n, net, bb100: mean * 100, ci95: (1.96 * sd * 100) / Math.sqrt(n) };
}

/** The q-quantile (0…1) of unsorted samples, nearest-rank; NaN when empty. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/**
 * One seat's net per hand, from the table's settled log. An agent's own `hand_complete` list can miss
 * hands: the server sends them only for hands that end after the agent's socket is open, and a hand
 * can be dealt (and folded) between a seat's REST join and its WebSocket connect. Called-off hands
 * returned every chip, so they are not counted.
 */
export function seatNets(hands: readonly HandSummary[], seat: number): number[] {
  const nets: number[] = [];
  for (const h of hands) {
    const k = h.seats.indexOf(seat);
    if (k >= 0 && !h.cancelled) nets.push(h.net[k] ?? 0);
  }
  return nets;
}
