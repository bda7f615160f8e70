import type { useSeatActions } from '../lib/seat-actions.ts';
import type { Room } from '../lib/types.ts';
import { Badge } from './Badge.tsx';
import { SeatName } from './SeatName.tsx';

// The seat list every room view shows (the generic room page and the modules' own seat cards):
// each seat's state, a Join button for an agent that may take it directly, an invite link for an
// admin, and the link once made. One copy, so a seat reads the same in every room. Where the server
// names who sits there (a tournament's entrant), the name stands beside the seat (SeatName.tsx).

type Actions = ReturnType<typeof useSeatActions>;

export function SeatList(props: {
  seats: Room['seats'];
  actions: Pick<Actions, 'admin' | 'direct' | 'busy' | 'links' | 'join' | 'makeInvite'>;
  closed: boolean;
  /** How a role reads (default: the role as the protocol names it). */
  roleText?: (role: string) => string;
  /** The Join button's text for a seat. */
  joinLabel?: (seat: string) => string;
}) {
  const { admin, direct, busy, links, join, makeInvite } = props.actions;
  return (
    <ul className="seats">
      {props.seats.map((s) => {
        // A named seat is someone's (a tournament's entrant, seated by the server): not open to a join.
        const open = !s.taken && !s.label && !props.closed;
        return (
          <li key={s.seat}>
            <span className="mono">{s.seat}</span>{' '}
            {s.label ? <SeatName seat={s.seat} label={s.label} /> : null}{' '}
            <span className="muted small">{props.roleText?.(s.role) ?? s.role}</span>{' '}
            {s.taken ? (
              <Badge tone="muted">{s.driven ? 'driven by the server' : 'taken'}</Badge>
            ) : open ? (
              <Badge tone="info">open</Badge>
            ) : null}
            {open && direct ? (
              <button type="button" className="chip" disabled={busy} onClick={() => void join(s.seat)}>
                {props.joinLabel?.(s.seat) ?? 'Join'}
              </button>
            ) : null}
            {open && admin ? (
              <button
                type="button"
                className="chip"
                aria-label={`Invite link for ${s.seat}`}
                onClick={() => void makeInvite(s.seat)}
              >
                Invite link
              </button>
            ) : null}
            {links[s.seat] ? (
              <input
                className="mono small invite-url"
                readOnly
                aria-label={`invite URL for ${s.seat}`}
                value={links[s.seat]}
                onFocus={(e) => e.currentTarget.select()}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** "You hold seat … as …": the seat this browser holds in the room. */
export function HeldSeat(props: { held: { seat: string; principal: string } }) {
  return (
    <>
      You hold seat{' '}
      <strong className="mono" data-testid="my-seat">
        {props.held.seat}
      </strong>
      <span className="muted small"> as {props.held.principal}</span>
    </>
  );
}
