import {
  bankrollTable,
  type EntrantSeries,
  type WinMatrix as Matrix,
  type Standings,
} from '../rules/index.ts';
import './arena.css';
import { Downloads } from './Downloads.tsx';
import { RatingPlot } from './RatingPlot.tsx';
import { BANKROLL, BB100, SeriesPlot } from './SeriesPlot.tsx';
import { WinMatrix } from './WinMatrix.tsx';

// The tournament's pictures, under its standings: ratings with intervals, bankroll curves with
// bands (and poker's running bb/100), and the pairwise win-rate matrix — each with its table's CSV
// and JSON downloads. All of it is the view's data (rules/view.ts), drawn, never recomputed here.

export function ArenaPlots(props: {
  standings: Standings;
  matrix: Matrix | undefined;
  series: EntrantSeries[] | undefined;
  stem: string;
}) {
  const { standings, matrix, series, stem } = props;
  const poker = series?.some((s) => s.points.some((p) => p.bb100 !== undefined)) ?? false;
  return (
    <div className="arena-plots">
      <RatingPlot standings={standings} stem={stem} />
      {series ? (
        <section aria-labelledby="arena-bankroll" className="arena-plot">
          <h3 id="arena-bankroll">
            Bankroll over sets, with 95% bands{' '}
            <Downloads table={bankrollTable(series)} stem={stem} label="the bankroll curves" />
          </h3>
          <SeriesPlot
            series={series}
            pick={BANKROLL}
            title="bankroll over sets"
            testId="arena-bankroll-chart"
          />
          {poker ? (
            <>
              <h4>bb/100 over sets, with 95% intervals</h4>
              <SeriesPlot series={series} pick={BB100} title="bb/100 over sets" testId="arena-bb100-chart" />
            </>
          ) : null}
        </section>
      ) : null}
      {matrix ? <WinMatrix matrix={matrix} stem={stem} /> : null}
    </div>
  );
}
