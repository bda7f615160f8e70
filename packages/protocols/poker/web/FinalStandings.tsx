import { useQuery } from '@db8/web/kit';
import { pokerKeys } from './keys.ts';
import { pokerApi } from './tables.ts';

// A stopped table's standings: every seat that played, best first — its agent's name (once the
// table has ended everyone may see who sat where), final stack, chips bought, net and hands.

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function FinalStandings(props: { tableId: string; names: ReadonlyMap<number, string> }) {
  // Read once the table has stopped (its final stacks never change again).
  const read = useQuery({
    queryKey: pokerKeys.standings(props.tableId),
    queryFn: () => pokerApi.standings(props.tableId),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const rows = read.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="standings-h" data-testid="final-standings">
      <h2 id="standings-h">Final standings</h2>
      <div className="table-wrap">
        <table className="admin-table reflow">
          <thead>
            <tr>
              <th>Seat</th>
              <th>Final stack</th>
              <th>Bought</th>
              <th>Net</th>
              <th>Hands</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.seat} data-seat={r.seat}>
                <td>
                  seat {r.seat}
                  {props.names.get(r.seat) ? ` · ${props.names.get(r.seat)}` : ''}
                </td>
                <td className="num" data-label="Final stack">
                  {r.stack}
                </td>
                <td className="num" data-label="Bought">
                  {r.bought}
                </td>
                <td className="num" data-label="Net" data-testid="standing-net">
                  {signed(r.net)}
                </td>
                <td className="num" data-label="Hands">
                  {r.handsPlayed}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
