import type { Entry } from '@db8/web/kit';
import { z } from 'zod';
import { TableActionSchema } from '../rules/index.ts';

// A table's log entries in words for the live log, the journal, the inspector and the admin table
// page: who did what ("seat 2 raises to 40"), which hand was dealt or ended, what the house did.
// Read from the public payload and the entry's hand note (rules/protocol/notes.ts); an entry this
// does not know (or a sealed one) gets null and is listed as JSON.

const Note = z
  .object({
    hand: z.number().int(),
    deck_commitment: z.string().optional(),
    deck: z.array(z.string()).optional(),
  })
  .loose();

/** `seat_2` → `seat 2` (seats are numbered from 0, as on the felt). */
const seatName = (actor: string) => actor.replace(/^seat_(\d+)$/, 'seat $1');

function actionWords(actor: string, payload: unknown): string | null {
  const a = TableActionSchema.safeParse(payload);
  if (!a.success) return null;
  const who = seatName(actor);
  switch (a.data.kind) {
    case 'fold':
      return `${who} folds`;
    case 'check':
      return `${who} checks`;
    case 'call':
      return `${who} calls`;
    case 'raiseTo':
      return `${who} raises to ${a.data.amount}`;
    case 'sitIn':
      return `${who} sits in`;
    case 'sitOut':
      return `${who} sits out`;
    case 'leave':
      return `${who} leaves the table`;
    case 'kick':
      return `the house removes seat ${a.data.seat}`;
    case 'topUp':
      return `the house adds ${a.data.amount} chips to seat ${a.data.seat}`;
    case 'stop':
      return 'the house stops the table';
  }
}

function noteWords(note: unknown): string | null {
  const n = Note.safeParse(note);
  if (!n.success) return null;
  const parts: string[] = [];
  if (n.data.deck) parts.push(`hand ${n.data.hand} ends; its deck is revealed`);
  if (n.data.deck_commitment)
    parts.push(`hand ${n.data.hand} is dealt (deck committed ${n.data.deck_commitment.slice(0, 8)}…)`);
  return parts.length > 0 ? parts.join('; ') : null;
}

const Join = z.object({ seat: z.string() }).loose();
const Close = z.object({ result: z.object({ hands: z.number().int(), reason: z.string() }).loose() }).loose();
const REASONS: Record<string, string> = {
  maxHands: 'its last hand was played',
  house: 'the house stopped it',
  idle: 'every seat had left',
};

function joinWords(payload: unknown): string | null {
  const j = Join.safeParse(payload);
  return j.success ? `${seatName(j.data.seat)} is taken` : null;
}

function closeWords(payload: unknown): string {
  const c = Close.safeParse(payload);
  if (!c.success) return 'the table is closed';
  const why = REASONS[c.data.result.reason];
  return `the table is closed after ${c.data.result.hands} hands${why ? `: ${why}` : ''}`;
}

export function describePokerEntry(entry: Entry): string | null {
  const note = noteWords((entry as { note?: unknown }).note);
  let head: string | null = null;
  if (entry.kind === 'genesis') head = 'the table opens';
  else if (entry.kind === 'action' && entry.payload !== undefined)
    head = actionWords(entry.actor, entry.payload);
  // A tick deals, or acts for a seat whose time ran out, or stops an idle table: the note tells a deal.
  else if (entry.kind === 'tick')
    head = note ? null : "the table's clock acts (a seat's time ran out, or an idle table stops)";
  // A join is the admin's to read while the table runs: its payload is then sealed-but-visible.
  else if (entry.kind === 'join') head = joinWords(entry.payload ?? entry.sealed?.payload);
  else if (entry.kind === 'close') head = closeWords(entry.payload);
  const words = [head, note].filter((w): w is string => w !== null);
  return words.length > 0 ? words.join('; ') : null;
}
