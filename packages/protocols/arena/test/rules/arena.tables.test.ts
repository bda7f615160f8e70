import { describe, expect, it } from 'vitest';
import {
  csvField,
  csvOf,
  type Match,
  matrixTable,
  ratingsTable,
  seriesOf,
  standingsOf,
  tableCsv,
  tableJson,
  tablesOf,
  winMatrixOf,
} from '../../rules/index.ts';
import { config, play } from './harness.ts';

// The exported tables: the CSV encoder against hostile names, and the row builders' shape.

describe('CSV encoder', () => {
  it('quotes quotes, commas and newlines, and disarms formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const lead of ['+1', '-1', '@sum', '\tx']) expect(csvField(lead)).toBe(`'${lead}`);
    // Numbers stay numbers: a negative score is not a formula.
    expect(csvField(-9.8)).toBe('-9.8');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('writes a header and one CRLF line per row, in column order', () => {
    const name = '=evil, "quoted"\nname';
    expect(
      csvOf(
        ['entrant', 'score'],
        [
          { score: -3, entrant: name },
          { entrant: 'ok', score: null },
        ],
      ),
    ).toBe(`entrant,score\r\n"'=evil, ""quoted""\nname",-3\r\nok,\r\n`);
  });
});

describe('tables', () => {
  // Entrant names cannot hold a newline (the config's schema); quotes, commas and formulas they can.
  const hostile = ['=cmd|x', 'a "b", c'];
  const room = play(
    config({
      entrants: hostile.map((name) => ({ name, kind: 'person' as const })),
      format: { kind: 'round-robin', games: 2 },
      bootstrap: 20,
    }),
    (m: Match) => m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: i === 0 ? 5 : -5 })),
  );
  const standings = standingsOf(room.state);
  const tables = tablesOf({ standings, matrix: winMatrixOf(room.state), series: seriesOf(room.state) });

  it('gives every table of a non-poker tournament, rows keyed by their columns', () => {
    expect(tables.map((t) => t.name)).toEqual(['standings', 'ratings', 'matrix', 'bankroll']);
    for (const t of tables) for (const r of t.rows) expect(Object.keys(r)).toEqual(t.columns);
  });

  it('rounds to what the page shows and states the rating status', () => {
    const r = ratingsTable(standings);
    expect(r.rows.map((x) => x.rating)).toEqual(standings.rows.map((x) => Number(x.rating.toFixed(0))));
    // One win each: equal ratings, overlapping intervals.
    expect(r.rows.map((x) => x.status)).toEqual(['not enough games', 'not enough games']);
    expect(r.rows.map((x) => x.games)).toEqual([2, 2]);
  });

  it('round-trips hostile names through CSV and JSON', () => {
    const m = matrixTable(winMatrixOf(room.state));
    const csv = tableCsv(m);
    expect(csv.split('\r\n')[0]).toBe('entrant,opponent,wins,draws,losses,games,win_rate');
    expect(csv).toContain(`'=cmd|x,"a ""b"", c",1,0,1,2,0.5\r\n`);
    expect(JSON.parse(tableJson(m))[0]).toEqual({
      entrant: '=cmd|x',
      opponent: 'a "b", c',
      wins: 1,
      draws: 0,
      losses: 1,
      games: 2,
      win_rate: 0.5,
    });
  });
});
