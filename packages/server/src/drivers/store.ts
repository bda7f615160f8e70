import { type BudgetLimits, BudgetLimitsSchema, type CallRecord } from '@db8/agents';
import { truncateCodePoints } from '@db8/core';
import { z } from 'zod';
import type { Store } from '../store/index.ts';
import { type DriverSpec, DriverSpecSchema } from './spec.ts';

/** The driver tables (migration 020_drivers.sql): specs per seat and one row per call or refusal. */

export const DriverCallRowSchema = z.object({
  id: z.coerce.number(),
  roomId: z.string(),
  seat: z.string(),
  decision: z.string(),
  ok: z.boolean(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  actedSeq: z.number().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number().nullable(),
  createdAt: z.coerce.number(),
});
export type DriverCallRow = z.infer<typeof DriverCallRowSchema>;

export interface DriverCallInput {
  roomId: string;
  seat: string;
  decision: string;
  ok: boolean;
  error?: { code: string; message: string } | null;
  actedSeq?: number | null;
  record: CallRecord | null;
  now: number;
  /** The principal the call was made for when no seat of the room holds it (an arena model entrant). */
  principal?: string | null;
}

export class DriverStore {
  constructor(readonly store: Store) {}

  async put(roomId: string, seat: string, spec: DriverSpec, now: number): Promise<void> {
    await this.store.db.query(
      `INSERT INTO room_drivers (room_id, seat, spec, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (room_id, seat) DO UPDATE SET spec = EXCLUDED.spec`,
      [roomId, seat, JSON.stringify(spec), now],
    );
  }

  async forRoom(roomId: string): Promise<Record<string, DriverSpec>> {
    const rows = await this.store.db.query<{ seat: string; spec: unknown }>(
      'SELECT seat, spec FROM room_drivers WHERE room_id = $1 ORDER BY seat',
      [roomId],
    );
    return Object.fromEntries(rows.map((r) => [r.seat, DriverSpecSchema.parse(parse(r.spec))]));
  }

  /** The seats a driver plays, per room, for a page of rooms (one query). */
  async drivenSeats(roomIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    if (roomIds.length === 0) return out;
    const rows = await this.store.db.query<{ room_id: string; seat: string }>(
      'SELECT room_id, seat FROM room_drivers WHERE room_id = ANY($1)',
      [roomIds],
    );
    for (const r of rows) {
      const set = out.get(r.room_id);
      if (set) set.add(r.seat);
      else out.set(r.room_id, new Set([r.seat]));
    }
    return out;
  }

  async putRoomBudget(roomId: string, limits: BudgetLimits, now: number): Promise<void> {
    await this.store.db.query(
      `INSERT INTO room_driver_budgets (room_id, limits, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (room_id) DO UPDATE SET limits = EXCLUDED.limits`,
      [roomId, JSON.stringify(limits), now],
    );
  }

  async roomBudget(roomId: string): Promise<BudgetLimits | null> {
    const rows = await this.store.db.query<{ limits: unknown }>(
      'SELECT limits FROM room_driver_budgets WHERE room_id = $1',
      [roomId],
    );
    return rows[0] ? BudgetLimitsSchema.parse(parse(rows[0].limits)) : null;
  }

  async rooms(): Promise<string[]> {
    const rows = await this.store.db.query<{ room_id: string }>(
      'SELECT DISTINCT d.room_id FROM room_drivers d JOIN rooms r ON r.id = d.room_id WHERE r.status = $1',
      ['open'],
    );
    return rows.map((r) => r.room_id);
  }

  async record(c: DriverCallInput): Promise<void> {
    await this.store.db.query(
      `INSERT INTO driver_calls (room_id, seat, decision, ok, error_code, error_message, acted_seq,
         input_tokens, output_tokens, cost_usd, record, created_at, principal_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        c.roomId,
        c.seat,
        c.decision,
        c.ok,
        c.error?.code ?? null,
        c.error ? truncateCodePoints(c.error.message, 2000) : null,
        c.actedSeq ?? null,
        c.record?.usage.inputTokens ?? 0,
        c.record?.usage.outputTokens ?? 0,
        c.record?.costUsd ?? null,
        c.record ? JSON.stringify(c.record) : null,
        c.now,
        c.principal ?? null,
      ],
    );
  }

  async calls(roomId: string): Promise<DriverCallRow[]> {
    const rows = await this.store.db.query<Record<string, unknown>>(
      `SELECT id, room_id, seat, decision, ok, error_code, error_message, acted_seq, input_tokens,
              output_tokens, cost_usd, created_at FROM driver_calls WHERE room_id = $1 ORDER BY id`,
      [roomId],
    );
    return rows.map((r) =>
      DriverCallRowSchema.parse({
        id: r.id,
        roomId: r.room_id,
        seat: r.seat,
        decision: r.decision,
        ok: r.ok,
        errorCode: r.error_code,
        errorMessage: r.error_message,
        actedSeq: r.acted_seq,
        inputTokens: r.input_tokens,
        outputTokens: r.output_tokens,
        costUsd: r.cost_usd,
        createdAt: r.created_at,
      }),
    );
  }
}

function parse(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}
