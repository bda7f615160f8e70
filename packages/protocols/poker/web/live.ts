import { useQuery, useQueryClient } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { PokerSocket } from '../client/index.ts';
import { type GameStatePayload, GameStatePayloadSchema, type HandCompletePayload } from '../rules/index.ts';
import { pokerKeys } from './keys.ts';
import { pokerApi } from './tables.ts';

// One table over the SDK's poker socket as an observer (no token: the server sends the public
// game_state, which never carries an unshown hole card, and hand_complete as each hand ends). The
// socket reconnects and drops states it already delivered; seed 002 does not replay hands that ended
// while disconnected, so every (re)connect backfills them from REST: the socket going live
// invalidates the table's `recent` read (pokerKeys.recent), merged with the hands the socket brought. The server clock is read from
// every envelope's `ts`.

export type TableLiveStatus = 'connecting' | 'live' | 'offline';

/** How many finished hands the page keeps. */
const KEEP_HANDS = 20;

/** Adds hands not yet known (by number), newest last, capped. */
export function mergeHands(prev: HandCompletePayload[], more: HandCompletePayload[]): HandCompletePayload[] {
  const known = new Set(prev.map((h) => h.hand_number));
  const next = [...prev, ...more.filter((h) => !known.has(h.hand_number))];
  next.sort((a, b) => a.hand_number - b.hand_number);
  return next.slice(-KEEP_HANDS);
}

export function useTableLive(tableId: string) {
  const [state, setState] = useState<GameStatePayload | null>(null);
  const queryClient = useQueryClient();
  const [pushed, setHands] = useState<HandCompletePayload[]>([]);
  const recent = useQuery({ queryKey: pokerKeys.recent(tableId), queryFn: () => pokerApi.recent(tableId) });
  const hands = mergeHands(recent.data ?? [], pushed);
  const [status, setStatus] = useState<TableLiveStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [skewMs, setSkewMs] = useState(0);

  useEffect(() => {
    setState(null);
    setHands([]);
    setStatus('connecting');
    const url = `${location.protocol}//${location.host}`;
    const sock = PokerSocket.open({ url, tableId });
    const offs = [
      sock.live.on('status', (s) => {
        setStatus(s === 'live' ? 'live' : s === 'connecting' ? 'connecting' : 'offline');
        if (s === 'live') {
          setError(null);
          void queryClient.invalidateQueries({ queryKey: pokerKeys.recent(tableId) });
        }
      }),
      sock.live.on('error', (e) => setError(`${e.code}: ${e.message}`)),
      sock.on((msg) => {
        const ts = Date.parse(msg.ts);
        if (Number.isFinite(ts)) setSkewMs(ts - Date.now());
        if (msg.type === 'hand_complete') return setHands((prev) => mergeHands(prev, [msg.payload]));
        const gs = GameStatePayloadSchema.safeParse(msg.payload);
        if (gs.success) setState(gs.data);
      }),
    ];
    return () => {
      for (const off of offs) off();
      sock.close();
    };
  }, [tableId, queryClient]);

  return { state, hands, status, error, skewMs };
}
