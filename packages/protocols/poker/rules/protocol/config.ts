import type { SeatInfo } from '@db8/core';
import { z } from 'zod';

/**
 * A poker table: N player seats (2–10) playing no-limit hold'em hand after hand, with the button
 * moving one live seat left each hand, plus one `house` seat the server acts for (play-money
 * top-ups, stopping the table). Chips are integers; times are unix ms.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const chips = z.number().int().min(0).max(1e12);

export const TableConfigSchema = z
  .object({
    /** Player seats: `seat_0` … `seat_{N-1}`. */
    seats: z.number().int().min(2).max(10),
    smallBlind: chips.min(1),
    bigBlind: chips.min(1),
    /** Every dealt-in seat posts this before the blinds (dead money). */
    ante: chips.default(0),
    /** Chips a seat gets when it first sits in. */
    startingStack: chips.min(1),
    /** How long the seat to act has; then the table checks for it if free, else folds. */
    actionTimeoutMs: z.number().int().min(100).max(DAY_MS).default(8000),
    /** Pause between a hand's end and the next deal (0: dealt in the same append as the hand's last action). */
    handIntervalMs: z.number().int().min(0).max(DAY_MS).default(1000),
    /** Stop after this many hands (null: play until the house stops the table). */
    maxHands: z.number().int().min(1).max(1e9).nullable().default(null),
    /** Deal only while at least this many seats can play (a simulation waits for every agent). */
    minPlayers: z.number().int().min(2).max(10).default(2),
    /** Sit a seat out after this many timeouts in a row (null: never). */
    maxConsecutiveTimeouts: z.number().int().min(1).max(1000).nullable().default(3),
    /**
     * Stop the table once every seat that sat in has left, sat out or been kicked for this long
     * (null: never). Null by default so tables made before it fold as they were; the server sets
     * it on the tables it makes (POKER_IDLE_STOP_MS).
     */
    idleStopMs: z.number().int().min(1000).max(DAY_MS).nullable().default(null),
  })
  .strict()
  .refine((c) => c.bigBlind >= c.smallBlind, { message: 'bigBlind must be at least smallBlind' })
  .refine((c) => c.minPlayers <= c.seats, { message: 'minPlayers cannot exceed seats' });
export type TableConfig = z.infer<typeof TableConfigSchema>;
export type TableConfigInput = z.input<typeof TableConfigSchema>;

export const HOUSE = 'house';
/** The house seat's role: reserved for the server (Protocol.reservedRoles). */
export const HOUSE_ROLE = 'house';

export function seatId(index: number): string {
  return `seat_${index}`;
}

// Every seat id a table can have (at most 10 seats), looked up rather than parsed: the fan-out asks
// for each viewer's index after every append, and a regex match allocated on each call.
const SEAT_INDEX = new Map(Array.from({ length: 10 }, (_, i) => [seatId(i), i] as const));

/** The table seat index of a seat id, or -1 (the house and strangers are not player seats). */
export function seatIndex(config: TableConfig, seat: string): number {
  const i = SEAT_INDEX.get(seat);
  return i !== undefined && i < config.seats ? i : -1;
}

export function tableSeats(config: TableConfig): SeatInfo[] {
  return [
    ...Array.from({ length: config.seats }, (_, i) => ({ id: seatId(i), role: 'player' })),
    { id: HOUSE, role: HOUSE_ROLE },
  ];
}
