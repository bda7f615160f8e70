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

/** Where one viewer's payload comes from: its parts, each built only when not shared yet. */
interface Source {
  rows: number;
  /** What row `i` shows this viewer (its hole cards): rows with the same key are the same row. */
  rowKey(i: number): string;
  row(i: number): unknown;
  /** The table part (no seats, no seat fields): the same for every viewer of one state. */
  table(): Record<string, unknown>;
  seat(): Partial<Pick<GameStatePayload, GameStateSeatField>>;
}

type Legal = { actions: readonly LegalTableAction[]; turnToken?: string } | undefined;

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
  private readonly tables: BoundedCache<string, { seq: number; parts: Map<string, Buffer> }>;

  constructor(maxTables = 4096) {
    this.tables = new BoundedCache(maxTables);
  }

  /** The payload's JSON; parses to the same value as `JSON.stringify(gs)`. */
  payload(tableId: string, seq: number, gs: GameStatePayload): string {
    return this.bytes(tableId, seq, gs).toString('utf8');
  }

  /** `before` + `gs` as JSON + `after`, as bytes (the shared parts reused). */
  bytes(tableId: string, seq: number, gs: GameStatePayload, before = '', after = ''): Buffer {
    return this.encode(tableId, seq, gs.deadline_ms, before, after, {
      rows: gs.seats.length,
      rowKey: (i) => holeKey(gs.seats[i]!.hole),
      row: (i) => gs.seats[i],
      table: () => {
        const table: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(gs))
          if (k !== 'seats' && !SEAT_FIELDS.includes(k as GameStateSeatField)) table[k] = v;
        return table;
      },
      seat: () => gs,
    });
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
    return this.encode(tableId, seq, deadlineMs, before, after, {
      rows: view.seats.length,
      rowKey: (i) => holeKey(gameStateHoleOf(view, i)),
      row: (i) => gameStateRowOf(view, i),
      table: () => gameStateTableOf(view, deadlineMs),
      seat: () => gameStateSeatOf(view, legal),
    });
  }

  private encode(
    tableId: string,
    seq: number,
    deadlineMs: number | null,
    before: string,
    after: string,
    src: Source,
  ): Buffer {
    const parts = this.partsOf(tableId, seq);
    const chunks: Buffer[] = [Buffer.from(`${before}{"seats":[`)];
    for (let i = 0; i < src.rows; i++) {
      const key = `s${i}:${src.rowKey(i)}`;
      let text = parts.get(key);
      if (text === undefined) {
        const json = JSON.stringify(src.row(i));
        text = Buffer.from(i === 0 ? json : `,${json}`);
        parts.set(key, text);
      }
      chunks.push(text);
    }
    // The table part is the same for every viewer of this seq (the deadline is in the key all the
    // same, so a viewer-dependent one could never be shared).
    const tableKey = `table:${deadlineMs}`;
    let table = parts.get(tableKey);
    if (table === undefined) {
      table = Buffer.from(`],${JSON.stringify(src.table()).slice(1, -1)}`);
      parts.set(tableKey, table);
    }
    chunks.push(table);
    const seat = src.seat();
    let own = '';
    for (const k of SEAT_FIELDS) {
      const v = seat[k];
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

function holeKey(hole: readonly string[] | null): string {
  return hole ? hole.join(',') : '-';
}
