import {
  type GameStatePayload,
  GameStatePayloadSchema,
  type HandCompletePayload,
  PokerServerMessageSchema,
} from '@db8/protocols/poker';
import { useEffect, useRef, useState } from 'react';
import { pokerApi } from './api.ts';

// One table over the poker WebSocket as an observer (no token: the server sends the public
// game_state, which never carries an unshown hole card, and hand_complete as each hand ends).
// Reconnects with backoff; the server clock is read from every envelope's `ts`.

export type TableLiveStatus = 'connecting' | 'live' | 'offline';

/** How many finished hands the page keeps. */
const KEEP_HANDS = 20;

export function pokerWsUrl(tableId: string): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/v1/poker/ws?table_id=${encodeURIComponent(tableId)}`;
}

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
  const seqRef = useRef(-1);

  useEffect(() => {
    let closed = false;
    let retry = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ws: WebSocket | null = null;
    seqRef.current = -1;
    setState(null);
    setHands([]);
    pokerApi
      .recent(tableId)
      .then((r) => !closed && setHands((prev) => mergeHands(prev, r)))
      .catch(() => {});

    const connect = () => {
      setStatus('connecting');
      const sock = new WebSocket(pokerWsUrl(tableId));
      ws = sock;
      sock.onmessage = (ev) => {
        if (closed || ws !== sock) return;
        let raw: unknown;
        try {
          raw = JSON.parse(String(ev.data));
        } catch {
          return;
        }
        const r = PokerServerMessageSchema.safeParse(raw);
        if (!r.success) return;
        const msg = r.data;
        const ts = Date.parse(msg.ts);
        if (Number.isFinite(ts)) setSkewMs(ts - Date.now());
        if (msg.type === 'welcome') {
          retry = 0;
          setStatus('live');
          setError(null);
        } else if (msg.type === 'game_state') {
          const gs = GameStatePayloadSchema.safeParse(msg.payload);
          if (gs.success && msg.seq >= seqRef.current) {
            seqRef.current = msg.seq;
            setState(gs.data);
          }
        } else if (msg.type === 'hand_complete') {
          setHands((prev) => mergeHands(prev, [msg.payload]));
        } else if (msg.type === 'error') {
          setError(`${msg.payload.code}: ${msg.payload.message}`);
        }
      };
      sock.onclose = () => {
        if (ws !== sock) return;
        ws = null;
        if (closed) return;
        setStatus('offline');
        timer = setTimeout(connect, Math.min(10_000, 500 * 2 ** retry++));
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      const s = ws;
      ws = null;
      if (s?.readyState === WebSocket.CONNECTING) s.onopen = () => s.close();
      else s?.close();
    };
  }, [tableId]);

  return { state, hands, status, error, skewMs };
}
