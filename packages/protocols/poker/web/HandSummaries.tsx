import type { HandCompletePayload } from '../rules/index.ts';
import { Cards } from './cards.tsx';
import { describePots, signed } from './format.ts';

// Finished hands, newest first: board, hands shown at showdown, who won which pot, each seat's net.

export function HandSummaries(props: { hands: readonly HandCompletePayload[] }) {
  const hands = [...props.hands].reverse();
  return (
    <section className="card" aria-labelledby="hands-h">
      <h2 id="hands-h">Recent hands</h2>
      {hands.length === 0 ? (
        <p className="muted small">No hand has finished yet.</p>
      ) : (
        <ol className="hand-list">
          {hands.map((h) => (
            <li key={h.hand_number} data-testid="hand-summary" data-hand={h.hand_number}>
              <div className="hand-line">
                <strong>Hand #{h.hand_number}</strong>
                {h.cancelled && <span className="muted"> · called off</span>}
                <span className="muted small"> · button seat {h.button}</span>
                {h.board.length > 0 && (
                  <span className="hand-board">
                    <Cards cards={h.board} small />
                  </span>
                )}
              </div>
              {h.shown.length > 0 && (
                <div className="small">
                  Shown:{' '}
                  {h.shown.map((s) => (
                    <span key={s.seat_id} className="shown">
                      seat {s.seat_id} <Cards cards={s.cards} small />
                    </span>
                  ))}
                </div>
              )}
              <div className="small">{describePots(h).join(' · ')}</div>
              <div className="small muted">
                {h.seats.map((seat, k) => `seat ${seat} ${signed(h.net[k] ?? 0)}`).join(' · ')}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
