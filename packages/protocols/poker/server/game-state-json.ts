import { BoundedCache } from '@db8/core';
import type { GameStatePayload } from '../rules/index.ts';

/**
 * `game_state` payloads as JSON, built once per table state and seat: every seat of a table gets
 * its own payload after each append, and most of it — the seats rows and the hand's actions, the
 * bulk of the bytes — is the same for all of them. Those parts are stringified and encoded once per
 * table and seq and spliced into each seat's payload. A row is shared only with viewers that see the very
 * same row (its hole cards are part of the key), so nothing one seat may see reaches another.
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
    const { seats, actions, ...rest } = gs;
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
    let actionsJson = parts.get('actions');
    if (actionsJson === undefined) {
      actionsJson = Buffer.from(`],"actions":${JSON.stringify(actions)}`);
      parts.set('actions', actionsJson);
    }
    chunks.push(actionsJson);
    // `rest` always holds the versions and the rest of the head: splice its members in after these.
    chunks.push(Buffer.from(`,${JSON.stringify(rest).slice(1)}${after}`));
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
