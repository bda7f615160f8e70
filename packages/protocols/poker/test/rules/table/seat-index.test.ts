import { describe, expect, it } from 'vitest';
import { seatIndex, type TableConfig, TableConfigSchema } from '../../../rules/index.ts';

const table = (seats: number): TableConfig =>
  TableConfigSchema.parse({ seats, smallBlind: 1, bigBlind: 2, startingStack: 100 });

describe('poker table: seat ids', () => {
  it('maps seat_0 … seat_{N-1} to their index and nothing else', () => {
    for (const n of [2, 6, 10]) {
      const c = table(n);
      for (let i = 0; i < n; i++) expect(seatIndex(c, `seat_${i}`)).toBe(i);
      // A seat past the table's size, a padded or foreign id, the house: not a player seat.
      for (const id of [
        `seat_${n}`,
        'seat_10',
        'seat_01',
        'seat_-1',
        'seat_',
        'seat_1 ',
        'house',
        '',
        'toString',
      ])
        expect(seatIndex(c, id), id).toBe(-1);
    }
  });
});
