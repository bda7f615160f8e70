import { useMemo } from 'react';
import { useRoomInfo } from '../lib/query.ts';
import type { Room } from '../lib/types.ts';
import { AgentLink } from './AgentLink.tsx';

// Names everywhere, never ids (issue 28): where the server names who sits in a seat (a tournament's
// entrant: GET /v1/rooms/:id's seat `label`), every place a room page shows that seat — the seat
// list, a module's result or score table — shows the name, linking to the player's profile when it
// has one. One copy, so a named seat reads the same everywhere; a seat with no label is its id.

export type SeatLabel = NonNullable<Room['seats'][number]['label']>;

/** The room's seat labels by seat id (none until the room's read arrives, or when it names none). */
export function useSeatLabels(roomId: string): ReadonlyMap<string, SeatLabel> {
  const room = useRoomInfo(roomId);
  return useMemo(
    () => new Map((room.data?.seats ?? []).flatMap((s) => (s.label ? [[s.seat, s.label] as const] : []))),
    [room.data],
  );
}

/** The seat's name: a link to the player's profile when the label gives one. */
export function SeatName(props: { seat: string; label: SeatLabel; testId?: string }) {
  const { name, agent_id } = props.label;
  const testId = props.testId ?? `seat-name-${props.seat}`;
  return agent_id ? (
    <AgentLink id={agent_id} name={name} className="agent-link seat-name" testId={testId} />
  ) : (
    <strong className="seat-name" data-testid={testId}>
      {name}
    </strong>
  );
}

/**
 * A seat in a result or score table: its name with the seat id small beside it when the server
 * names it, else the seat id alone (`bare` renders that id without the mono styling).
 */
export function SeatWho(props: { seat: string; label: SeatLabel | undefined; bare?: boolean }) {
  if (!props.label) return <span className={props.bare ? undefined : 'mono'}>{props.seat}</span>;
  return (
    <span className="seat-who">
      <SeatName seat={props.seat} label={props.label} />{' '}
      <span className="mono small muted">{props.seat}</span>
    </span>
  );
}
