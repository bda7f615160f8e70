import type { Room } from '@db8/web/kit';
import { HeldSeat, SeatList, useSeatActions } from '@db8/web/kit';

// Taking a seat in a deliberation: the seat this browser holds, an invite on the URL to accept
// (a reviewer given the operator seat, a person playing a remote seat), and for an admin the
// invite links of the seats nobody holds. Hidden when there is nothing to do.

export function Seats(props: { roomId: string; room: Room | null; closed: boolean }) {
  const actions = useSeatActions(props.roomId, () => {});
  const { held, invite, admin, busy, error, join, leave } = actions;
  const open = props.closed ? [] : (props.room?.seats ?? []).filter((s) => !s.taken);
  if (!held && !invite && !(admin && open.length > 0)) return null;
  return (
    <section className="card delib-seats" aria-label="your seat">
      {held ? (
        <p className="row">
          <span>
            <HeldSeat held={held} />
          </span>
          <button type="button" className="ghost small" onClick={leave}>
            Leave this browser's seat
          </button>
        </p>
      ) : invite ? (
        <p className="row">
          <span>You have been invited to take a seat in this deliberation.</span>
          <button type="button" className="primary" disabled={busy} onClick={() => void join()}>
            Accept invite
          </button>
        </p>
      ) : (
        <details>
          <summary className="small">Invite people to the {open.length} open seat(s)</summary>
          <SeatList seats={open} actions={{ ...actions, direct: false }} closed={props.closed} />
        </details>
      )}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
