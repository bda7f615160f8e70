import { BoundedCache } from '@db8/core';
import {
  type GameStatePayload,
  type GameStateSeatField,
  gameStateHoleOf,
  gameStateRowOf,
  gameStateSeatOf,
  gameStateTableOf,
  type LegalTableAction,
  type TableView,
} from '../rules/index.ts';

/** The fields of a `game_state` that only its own seat gets; every other field is the table's. */
const SEAT_FIELDS: readonly GameStateSeatField[] = [
  'your_seat',
  'your_hole',
  'turn_token',
  'legal_actions',
  'amount_to_call',
  'min_raise_to',
  'max_raise_to',
];

type Legal = { actions: readonly LegalTableAction[]; turnToken?: string } | undefined;
type Parts = Map<string, Buffer>;

/**
 * `game_state` payloads as JSON, built once per table state and seat: every seat of a table gets
 * its own payload after each append, and most of it — the seats rows, the hand's actions and the
 * table's head (pot, board, blinds…) — is the same for all of them. Those parts are built,
 * stringified and encoded once per table and seq and spliced into each seat's payload, which adds
 * only its own fields (SEAT_FIELDS). A row is shared only with viewers that see the very same row
 * (its hole cards are part of the key), so nothing one seat may see reaches another.
 */
export class GameStateJson {
  /** Per table, the parts of its newest state; the least recently played tables dropped first. */
  private readonly tables: BoundedCache<string, { seq: number; parts: Parts }>;

  constructor(maxTables = 4096) {
    this.tables = new BoundedCache(maxTables);
  }

  /** The payload's JSON; parses to the same value as `JSON.stringify(gs)`. */
  payload(tableId: string, seq: number, gs: GameStatePayload): string {
    return this.bytes(tableId, seq, gs).toString('utf8');
  }

  /** `before` + `gs` as JSON + `after`, as bytes (the shared parts reused). */
  bytes(tableId: string, seq: number, gs: GameStatePayload, before = '', after = ''): Buffer {
    const parts = this.partsOf(tableId, seq);
    const chunks: Buffer[] = [Buffer.from(`${before}{"seats":[`)];
    for (let i = 0; i < gs.seats.length; i++) {
      const row = gs.seats[i]!;
      chunks.push(parts.get(rowKey(i, row.hole)) ?? rowPart(parts, i, row.hole, row));
    }
    const table = parts.get(tableKey(gs.deadline_ms));
    if (table) chunks.push(table);
    else {
      const t: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(gs))
        if (k !== 'seats' && !SEAT_FIELDS.includes(k as GameStateSeatField)) t[k] = v;
      chunks.push(tablePart(parts, gs.deadline_ms, t));
    }
    chunks.push(seatPart(gs, after));
    return Buffer.concat(chunks);
  }

  /**
   * `before` + the `game_state` of `view` (gameStateOf) as JSON + `after`, as bytes: only the
   * viewer's own fields are built per viewer; rows and the table part once per table and seq.
   */
  bytesOfView(
    tableId: string,
    seq: number,
    view: TableView,
    legal: Legal,
    deadlineMs: number | null,
    before = '',
    after = '',
  ): Buffer {
    const parts = this.partsOf(tableId, seq);
    const chunks: Buffer[] = [Buffer.from(`${before}{"seats":[`)];
    for (let i = 0; i < view.seats.length; i++) {
      const hole = gameStateHoleOf(view, i);
      chunks.push(parts.get(rowKey(i, hole)) ?? rowPart(parts, i, hole, gameStateRowOf(view, i)));
    }
    chunks.push(
      parts.get(tableKey(deadlineMs)) ?? tablePart(parts, deadlineMs, gameStateTableOf(view, deadlineMs)),
    );
    chunks.push(seatPart(gameStateSeatOf(view, legal), after));
    return Buffer.concat(chunks);
  }

  private partsOf(tableId: string, seq: number): Parts {
    let t = this.tables.get(tableId);
    if (!t || t.seq !== seq) {
      t = { seq, parts: new Map() };
      this.tables.set(tableId, t);
    }
    return t.parts;
  }
}

/** Keys of rows that show no cards (most of them), made once. */
const BLANK_ROWS = Array.from({ length: 10 }, (_, i) => `s${i}:-`);

function rowKey(i: number, hole: readonly string[] | null): string {
  return hole ? `s${i}:${hole.join(',')}` : (BLANK_ROWS[i] ?? `s${i}:-`);
}

/** Row `i` (showing `hole`) as JSON, kept for the other viewers of this table and seq. */
function rowPart(parts: Parts, i: number, hole: readonly string[] | null, row: unknown): Buffer {
  const json = JSON.stringify(row);
  const text = Buffer.from(i === 0 ? json : `,${json}`);
  parts.set(rowKey(i, hole), text);
  return text;
}

/** The deadline is in the key all the same, so a viewer-dependent one could never be shared. */
function tableKey(deadlineMs: number | null): string {
  return `table:${deadlineMs}`;
}

/** The table part (no seats, no seat fields), kept for the other viewers of this table and seq. */
function tablePart(parts: Parts, deadlineMs: number | null, table: object): Buffer {
  const text = Buffer.from(`],${JSON.stringify(table).slice(1, -1)}`);
  parts.set(tableKey(deadlineMs), text);
  return text;
}

/** The viewer's own fields, then `}` and `after`. */
function seatPart(seat: Partial<Pick<GameStatePayload, GameStateSeatField>>, after: string): Buffer {
  let own = '';
  for (const k of SEAT_FIELDS) {
    const v = seat[k];
    if (v !== undefined) own += `,"${k}":${JSON.stringify(v)}`;
  }
  return Buffer.from(`${own}}${after}`);
}
