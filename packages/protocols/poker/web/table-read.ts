import { useQuery, useQueryClient, useSeatLabels } from '@db8/web/kit';
import { useEffect, useMemo } from 'react';
import type { GameStatePayload } from '../rules/index.ts';
import { pokerKeys } from './keys.ts';
import { pokerApi } from './tables.ts';

/**
 * A table's REST record (summary and who sits where) beside its live state, and the agents' names by
 * seat. Read again when an agent sits down or leaves and when the table stops (an observer sees who
 * sat where once it has ended, an admin all along); with no live state yet there is nothing to
 * refresh, so a 404 is asked once. A name the server gives the room's seat (a tournament's entrant:
 * GET /v1/rooms/:id's seat `label`) stands before the seat holder's own.
 */
export function useTableRead(tableId: string, state: GameStatePayload | null) {
  const read = useQuery({ queryKey: pokerKeys.table(tableId), queryFn: () => pokerApi.table(tableId) });
  const labels = useSeatLabels(tableId);
  const names = useMemo(() => {
    const byIndex = new Map(
      (read.data?.players ?? []).flatMap((p) => (p.name ? [[p.seat_id, p.name] as const] : [])),
    );
    for (const [seat, label] of labels) {
      const index = /^seat_(\d{1,2})$/.exec(seat)?.[1];
      if (index !== undefined) byIndex.set(Number(index), label.name);
    }
    return byIndex;
  }, [read.data, labels]);
  const queryClient = useQueryClient();
  const taken = state
    ? `${state.seats.flatMap((s) => (s.status === 'empty' ? [] : [s.seat_id])).join(',')}:${state.status === 'stopped'}`
    : null;
  useEffect(() => {
    if (taken !== null) void queryClient.invalidateQueries({ queryKey: pokerKeys.table(tableId) });
  }, [taken, tableId, queryClient]);
  return { read, names };
}
