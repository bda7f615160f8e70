import { useEffect, useState } from 'react';
import { PokerSocket } from '../client/index.ts';
import { type GameStatePayload, GameStatePayloadSchema, type HandCompletePayload } from '../rules/index.ts';
import { pokerApi } from './tables.ts';

// One table over the SDK's poker socket as an observer (no token: the server sends the public
// game_state, which never carries an unshown hole card, and hand_complete as each hand ends). The
// socket reconnects and drops states it already delivered; seed 002 does not replay hands that ended
// while disconnected, so every (re)connect backfills them from REST. The server clock is read from
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
  const [hands, setHands] = useState<HandCompletePayload[]>([]);
  const [status, setStatus] = useState<TableLiveStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [skewMs, setSkewMs] = useState(0);

  useEffect(() => {
    let closed = false;
    setState(null);
    setHands([]);
    setStatus('connecting');
    const backfill = () =>
      pokerApi
        .recent(tableId)
        .then((r) => !closed && setHands((prev) => mergeHands(prev, r)))
        .catch(() => {});
    const url = `${location.protocol}//${location.host}`;
    const sock = PokerSocket.open({ url, tableId });
    const offs = [
      sock.live.on('status', (s) => {
        setStatus(s === 'live' ? 'live' : s === 'connecting' ? 'connecting' : 'offline');
        if (s === 'live') {
          setError(null);
          void backfill();
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
      closed = true;
      for (const off of offs) off();
      sock.close();
    };
  }, [tableId]);

  return { state, hands, status, error, skewMs };
}
