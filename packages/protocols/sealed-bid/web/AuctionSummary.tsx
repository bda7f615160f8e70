import { SeatWho, useSeatLabels } from '@db8/web/kit';
import type { Outcome, SealedBidView } from '../rules/sealed-bid/index.ts';

// The auction in words above the generic room's state: the item, the rule, and once it is over who
// won at what price and every bidder's final offer, best first — each bidder by name where the
// server names its seat (a tournament's entrant), else by seat.

const RULE: Record<Outcome['rule'], string> = {
  'first-price': 'first price: the winner pays their own bid',
  'second-price': 'second price: the winner pays the runner-up’s bid',
};

const WHY: Record<Outcome['reason'], string> = {
  sold: 'sold',
  'no-bids': 'no bid reached the reserve',
  withdrawn: 'withdrawn by the auctioneer',
};

export function AuctionSummary(props: { view: unknown; status: string; roomId: string }) {
  const view = props.view as Partial<SealedBidView> | null;
  const labels = useSeatLabels(props.roomId);
  const outcome = view?.outcome ?? null;
  if (!outcome) {
    return (
      <p>
        Auction{view?.item ? ` of ${view.item}` : ''}: <strong>{view?.phase ?? props.status}</strong>
        {view?.rule ? ` (${RULE[view.rule]})` : ''}.
      </p>
    );
  }
  return (
    <div>
      <h2>Result</h2>
      <p data-testid="auction-result">
        {outcome.sold && outcome.winner !== null ? (
          <>
            <strong>{outcome.item}</strong> sold to{' '}
            <strong>
              <SeatWho seat={outcome.winner} label={labels.get(outcome.winner)} bare />
            </strong>{' '}
            for <strong>{outcome.price}</strong>
          </>
        ) : (
          <>
            <strong>{outcome.item}</strong> not sold: {WHY[outcome.reason]}
          </>
        )}{' '}
        <span className="muted">
          ({RULE[outcome.rule]}; closed {new Date(outcome.closedAt).toLocaleString()})
        </span>
      </p>
      {outcome.ranking.length > 0 ? (
        <table className="standings" data-testid="auction-ranking">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">bidder</th>
              <th scope="col">final offer</th>
            </tr>
          </thead>
          <tbody>
            {outcome.ranking.map((s, i) => (
              <tr key={s.seat}>
                <td>{i + 1}</td>
                <td>
                  <SeatWho seat={s.seat} label={labels.get(s.seat)} bare />
                </td>
                <td>{s.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
