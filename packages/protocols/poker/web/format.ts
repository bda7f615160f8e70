import type { HandCompletePayload } from '../rules/index.ts';

// Words for the table's events, shared by the felt and the hand summaries.

const VERBS: Record<string, string> = {
  ante: 'posts an ante of',
  smallBlind: 'posts the small blind',
  bigBlind: 'posts the big blind',
  fold: 'folds',
  check: 'checks',
  call: 'calls',
  raiseTo: 'raises to',
  sitIn: 'sits in',
  sitOut: 'sits out',
  topUp: 'is topped up by',
  stop: 'stops the table',
};

export function describeAction(a: {
  seat_id: number;
  kind: string;
  amount?: number;
  auto?: boolean;
}): string {
  const verb = VERBS[a.kind] ?? a.kind;
  const amount = a.amount !== undefined && a.kind !== 'fold' && a.kind !== 'check' ? ` ${a.amount}` : '';
  return `Seat ${a.seat_id} ${verb}${amount}${a.auto ? ' (timed out)' : ''}`;
}

/** "Seat 2 wins 120", "Seats 0 and 3 split 90" for each pot. */
export function describePots(h: HandCompletePayload): string[] {
  return h.pots.map((p, i) => {
    const label = h.pots.length > 1 ? (i === 0 ? 'main pot' : `side pot ${i}`) : 'pot';
    if (p.winners.length === 0) return `${label} ${p.amount}: returned`;
    if (p.winners.length === 1) return `Seat ${p.winners[0]} wins ${label} ${p.amount}`;
    return `Seats ${p.winners.join(', ')} split ${label} ${p.amount} (${p.shares.join(' / ')})`;
  });
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
