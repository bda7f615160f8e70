// The connection dot beside a room's title. A closed room has nothing left to stream, so it says
// "ended" instead of a green "live" that would suggest the room still moves.

export function LiveBadge(props: { status: string; closed: boolean; testId?: string }) {
  const shown = props.closed ? 'ended' : props.status;
  return (
    <span
      className={`live live-${shown}`}
      role="status"
      data-testid={props.testId ?? 'live-status'}
      title={props.closed ? 'this room is closed: its log is complete' : `connection: ${props.status}`}
    >
      {shown}
    </span>
  );
}
