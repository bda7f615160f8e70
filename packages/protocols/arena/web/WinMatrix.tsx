import { type WinMatrix as Matrix, matrixTable } from '../rules/index.ts';
import { Downloads } from './Downloads.tsx';

// The pairwise win-rate matrix as a table: row against column, each cell the row's win rate (draws
// count half) over their games, tinted blue above 50% and orange below, stronger the farther from
// even; the numbers are always written, so the colour is never the only cue. On a phone it reflows
// like every table: one card per row entrant, a "vs opponent" line per cell.

/** Cell tint: blue (#0072b2) for the row winning, orange (#d55e00) for it losing; alpha by the margin. */
export function tint(rate: number | null): string | undefined {
  if (rate === null) return undefined;
  const a = Math.min(0.55, Math.abs(rate - 0.5) * 1.1).toFixed(2);
  return rate >= 0.5 ? `rgba(0, 114, 178, ${a})` : `rgba(213, 94, 0, ${a})`;
}

export function WinMatrix(props: { matrix: Matrix; stem: string }) {
  const { matrix } = props;
  const cell = (e: string, o: string) => matrix.cells.find((c) => c.entrant === e && c.opponent === o);
  return (
    <section aria-labelledby="arena-matrix" className="arena-plot">
      <h3 id="arena-matrix">
        Win rate, row against column{' '}
        <Downloads table={matrixTable(matrix)} stem={props.stem} label="the win-rate matrix" />
      </h3>
      <div className="table-wrap">
        <table className="arena-matrix reflow" data-testid="arena-matrix">
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">entrant</span>
              </th>
              {matrix.entrants.map((o) => (
                <th key={o} scope="col">
                  {o}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.entrants.map((e) => (
              <tr key={e}>
                <th scope="row">{e}</th>
                {matrix.entrants.map((o) => {
                  const c = cell(e, o);
                  if (!c) return <td key={o} className="self" aria-label={`${e} against itself`} />;
                  return (
                    <td
                      key={o}
                      data-label={`vs ${o}`}
                      style={{ background: tint(c.winRate) }}
                      title={`${e} against ${o}: ${c.wins} won, ${c.draws} drawn, ${c.losses} lost`}
                    >
                      <span className="rate">
                        {c.winRate === null ? '—' : `${Math.round(c.winRate * 100)}%`}
                      </span>
                      <span className="wdl mono small">
                        {c.wins}-{c.draws}-{c.losses}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
