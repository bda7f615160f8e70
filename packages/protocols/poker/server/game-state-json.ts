import { BoundedCache } from '@db8/core';
import type { GameStatePayload } from '../rules/index.ts';

/** The fields of a `game_state` that only its own seat gets; every other field is the table's. */
const SEAT_FIELDS = [
  'your_seat',
  'your_hole',
  'turn_token',
  'legal_actions',
  'amount_to_call',
  'min_raise_to',
  'max_raise_to',
] as const;
type SeatField = (typeof SEAT_FIELDS)[number];

/**
 * `game_state` payloads as JSON, built once per table state and seat: every seat of a table gets
 * its own payload after each append, and most of it — the seats rows, the hand's actions and the
 * table's head (pot, board, blinds…) — is the same for all of them. Those parts are stringified and
 * encoded once per table and seq and spliced into each seat's payload, which adds only its own
 * fields (SEAT_FIELDS). A row is shared only with viewers that see the very same row (its hole
 * cards are part of the key), so nothing one seat may see reaches another.
 */
export class GameStateJson {
  /** Per table, the parts of its newest state; the least recently played tables dropped first. */
  private readonly tables: BoundedCache<string, { seq: number; parts: Map<string, Buffer> }>;

  constructor(maxTables = 4096) {
    this.tables = new BoundedCache(maxTables);
  }

  /** The payload's JSON; parses to the same value as `JSON.stringify(gs)`. */
  payload(tableId: string, seq: number, gs: GameStatePayload): string {
    return this.bytes(tableId, seq, gs).toString('utf8');
  }

  /**
   * `before` + the payload's JSON + `after`, as bytes: the shared parts are kept encoded, so each
   * seat's message is one copy of them rather than a string built, flattened and encoded per seat.
   */
  bytes(tableId: string, seq: number, gs: GameStatePayload, before = '', after = ''): Buffer {
    const parts = this.partsOf(tableId, seq);
    const { seats, actions } = gs;
    const chunks: Buffer[] = [Buffer.from(`${before}{"seats":[`)];
    for (let i = 0; i < seats.length; i++) {
      const row = seats[i]!;
      const key = `s${i}:${row.hole ? row.hole.join(',') : '-'}`;
      let text = parts.get(key);
      if (text === undefined) {
        text = Buffer.from(i === 0 ? JSON.stringify(row) : `,${JSON.stringify(row)}`);
        parts.set(key, text);
      }
      chunks.push(text);
    }
    // The table's head and actions: the same for every viewer of this seq (the deadline is in the
    // key all the same, so a viewer-dependent one could never be shared).
    const headKey = `head:${gs.deadline_ms}`;
    let head = parts.get(headKey);
    if (head === undefined) {
      const table: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(gs))
        if (k !== 'seats' && k !== 'actions' && !SEAT_FIELDS.includes(k as SeatField)) table[k] = v;
      head = Buffer.from(`],"actions":${JSON.stringify(actions)},${JSON.stringify(table).slice(1, -1)}`);
      parts.set(headKey, head);
    }
    chunks.push(head);
    let own = '';
    for (const k of SEAT_FIELDS) {
      const v = gs[k];
      if (v !== undefined) own += `,"${k}":${JSON.stringify(v)}`;
    }
    chunks.push(Buffer.from(`${own}}${after}`));
    return Buffer.concat(chunks);
  }

  private partsOf(tableId: string, seq: number): Map<string, Buffer> {
    let t = this.tables.get(tableId);
    if (!t || t.seq !== seq) {
      t = { seq, parts: new Map() };
      this.tables.set(tableId, t);
    }
    return t.parts;
  }
}
