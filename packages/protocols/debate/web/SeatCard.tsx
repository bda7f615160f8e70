import type { Room } from '@db8/web/kit';
import { SeatList, useSeatActions } from '@db8/web/kit';

// Who you are in this debate: the seat this browser holds, or the invite to accept, or (for an
// admin) the seats with invite links. Debaters are anonymous (`anon_k`) until the reveal.

const ROLE_TEXT: Record<string, string> = {
  debater: 'debater',
  moderator: 'moderator',
  fact_checker: 'fact-checker',
  judge: 'judge',
  viewer: 'viewer',
};

export function SeatCard(props: {
  room: Room | null;
  roomId: string;
  role: string | null;
  onJoined: () => void;
}) {
  const actions = useSeatActions(props.roomId, props.onJoined);
  const { held, invite, admin, direct, busy, error, join, leave } = actions;

  if (held) {
    return (
      <section className="card seat-card" aria-label="your seat">
        <p>
          You are{' '}
          <strong className="mono" data-testid="my-seat">
            {held.seat}
          </strong>{' '}
          <span className="muted">({ROLE_TEXT[props.role ?? ''] ?? props.role ?? '…'})</span>
        </p>
        <p className="small muted">
          {props.role === 'debater' ? 'Others see only your seat until the reveal; you' : 'You'} joined as{' '}
          <span className="mono">{held.principal}</span>.
        </p>
        <button type="button" className="ghost small" onClick={leave}>
          Leave this browser's seat
        </button>
      </section>
    );
  }

  const seats = props.room?.seats ?? [];
  // A closed debate takes no one: no join, no invite links.
  const closed = props.room?.status === 'closed';
  return (
    <section className="card seat-card" aria-labelledby="seat-h">
      <h2 id="seat-h">Seats</h2>
      {closed ? (
        <p className="small muted">This debate is closed; its seats take no one.</p>
      ) : invite ? (
        <div className="invite">
          <p>You have been invited to take a seat in this debate.</p>
          <button type="button" className="primary" disabled={busy} onClick={() => void join()}>
            Accept invite
          </button>
        </div>
      ) : (
        <p className="small muted">You are watching. Open an invite link to take a seat.</p>
      )}
      {/* Seats a tournament names (only once a debate has unmasked them) are listed for everyone. */}
      {admin || direct || seats.some((s) => s.label) ? (
        <SeatList
          seats={seats}
          actions={actions}
          closed={closed}
          roleText={(role) => ROLE_TEXT[role] ?? role}
        />
      ) : (
        <p className="small muted">
          {seats.filter((s) => s.taken).length} of {seats.length} seats taken.
        </p>
      )}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
