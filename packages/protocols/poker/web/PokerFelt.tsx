import { Countdown } from '@db8/web/kit';
import type { GameStatePayload, HandCompletePayload } from '../rules/index.ts';
import { Card, Cards } from './cards.tsx';
import { describeAction, describePots } from './format.ts';

// The oval table: seats around the felt, the board and pot in the middle, the dealer button,
// blinds, bets in front of the seats, and whose turn it is with the server's countdown.
// Hole cards come only from the wire: face down while a hand runs (the observer's game_state
// never carries them), face up once the hand's summary shows them at showdown.

/** Seat i's position on the oval, in % of the felt box; seat 0 at the bottom, then clockwise. */
export function seatPosition(i: number, n: number): { left: number; top: number } {
  const a = Math.PI / 2 + (2 * Math.PI * i) / n;
  return { left: 50 + 47 * Math.cos(a), top: 50 + 44 * Math.sin(a) };
}

export function PokerFelt(props: {
  state: GameStatePayload;
  lastHand: HandCompletePayload | null;
  skewMs: number;
  /** Agents' names by seat, where known. */
  names?: ReadonlyMap<number, string>;
}) {
  const { state: gs, lastHand, skewMs } = props;
  const n = gs.seats.length;
  const live = gs.status === 'playing';
  // Between hands, the felt keeps the last hand's showdown: its board and the hands shown.
  const showdown = !live && lastHand && lastHand.hand_number === gs.hand_number ? lastHand : null;
  const board = live ? gs.board : (showdown?.board ?? []);
  const shownBy = new Map((showdown?.shown ?? []).map((s) => [s.seat_id, s.cards]));
  const winners = new Set(showdown?.pots.flatMap((p) => p.winners) ?? []);
  const street = live ? (gs.street ?? '') : gs.status;
  return (
    <section
      className="felt-wrap"
      aria-label="poker table"
      data-testid="poker-table"
      data-hand={gs.hand_number}
      data-street={street}
    >
      <div className="felt">
        <div className="felt-center">
          <div className="felt-hand small">
            {gs.hand_number > 0 ? `Hand #${gs.hand_number}` : 'No hand yet'} ·{' '}
            <span data-testid="street">{street}</span>
          </div>
          <div className="board" data-testid="board" title="board">
            {[0, 1, 2, 3, 4].map((i) =>
              board[i] ? (
                <Card key={board[i]} card={board[i]!} />
              ) : (
                <span key={`e${i}`} className="pcard slot" />
              ),
            )}
          </div>
          <div className="pot" data-testid="pot">
            {live ? (
              <>
                Pot <strong className="num">{gs.pot}</strong>
              </>
            ) : showdown ? (
              describePots(showdown).join(' · ')
            ) : (
              <span className="muted">no pot</span>
            )}
          </div>
          <div className="last-action small" data-testid="last-action">
            {gs.last_action ? describeAction(gs.last_action) : <span className="muted">no action yet</span>}
          </div>
        </div>
        {gs.seats.map((s) => {
          const pos = seatPosition(s.seat_id, n);
          const toAct = live && gs.to_act === s.seat_id;
          const shown = s.hole ?? shownBy.get(s.seat_id) ?? null;
          const inHand = live ? s.in_hand : shownBy.has(s.seat_id);
          const cls = [
            'seat',
            s.status === 'empty' ? 'empty' : '',
            toAct ? 'to-act' : '',
            s.folded ? 'folded' : '',
            winners.has(s.seat_id) && !live ? 'winner' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <div
              key={s.seat_id}
              className={cls}
              style={{ left: `${pos.left}%`, top: `${pos.top}%` }}
              data-testid={`seat-${s.seat_id}`}
              aria-current={toAct ? 'true' : undefined}
            >
              <div className="seat-head">
                <strong>Seat {s.seat_id}</strong>
                {props.names?.get(s.seat_id) ? (
                  <span className="seat-name" data-testid={`seat-name-${s.seat_id}`}>
                    {props.names.get(s.seat_id)}
                  </span>
                ) : null}
                {gs.button === s.seat_id && (
                  <span className="dealer" title="dealer button">
                    D
                  </span>
                )}
                {live && gs.small_blind_seat === s.seat_id && <span className="blind">SB</span>}
                {live && gs.big_blind_seat === s.seat_id && <span className="blind">BB</span>}
              </div>
              <div className="seat-cards" data-testid={`hole-${s.seat_id}`}>
                {inHand ? <Cards cards={shown ?? [null, null]} small /> : null}
              </div>
              <div className="seat-stack small">
                {s.status === 'empty' ? (
                  <span className="muted">empty</span>
                ) : (
                  <>
                    <span className="chip" aria-hidden="true" /> <span className="num">{s.stack}</span>
                    {s.status === 'sittingOut' && <span className="muted"> · sitting out</span>}
                    {s.folded && <span className="muted"> · folded</span>}
                    {s.all_in && <strong> · all-in</strong>}
                  </>
                )}
              </div>
              {live && s.bet > 0 && (
                <div className="bet num" data-testid={`bet-${s.seat_id}`}>
                  <span className="chip" aria-hidden="true" /> {s.bet}
                </div>
              )}
            </div>
          );
        })}
      </div>
      <div className="felt-foot">
        <div className="small" data-testid="turn">
          {live && gs.to_act !== null ? (
            <>
              <strong>Seat {gs.to_act}</strong> to act
            </>
          ) : gs.status === 'between' ? (
            'Next hand'
          ) : gs.status === 'stopped' ? (
            'The table has stopped'
          ) : gs.status === 'waiting' ? (
            'Waiting for players'
          ) : (
            'Dealing'
          )}
        </div>
        {gs.status === 'stopped' ? null : (
          <Countdown deadlineUnix={null} deadlineMs={gs.deadline_ms} skewMs={skewMs} />
        )}
      </div>
    </section>
  );
}
