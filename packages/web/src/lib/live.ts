import type { PresenceEvent } from '@db8/core';
import { type ActionBody, RoomSocket, type TypedRoomEvent } from '@db8/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, CLIENT_PROTOCOL_VERSION } from './api.ts';
import type { Ack, Entry, RoomState } from './types.ts';

// One room over the SDK's reconnecting socket: it says hello (the token rides in hello, not the
// URL), subscribes from the start of the log, and after a drop resumes from the last seq it
// delivered, so each entry arrives once, in order. Actions go over the same socket and resolve on
// the ack or the server's typed error. The server's clock is learnt from `welcome` so countdowns
// follow the server's deadline rather than this machine's clock.

export type LiveStatus = 'connecting' | 'live' | 'offline';

export type ActionError = { code: string; message: string; details?: unknown };

const MAX_ENTRIES = 500;

export function wsUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/v1/ws`;
}

/** Least time between two typing signals sent (the server drops closer ones anyway). */
const TYPING_EVERY_MS = 1500;

/**
 * `events: true` also follows the room's typed events: `presence` (who is connected, who is
 * typing) is kept here, and every event goes to `onEvent`.
 */
export function useRoomLive(
  roomId: string,
  token: string | null,
  opts: { events?: boolean; onEvent?: (ev: TypedRoomEvent) => void } = {},
) {
  const withEvents = opts.events === true;
  const [presence, setPresence] = useState<PresenceEvent | null>(null);
  const onEventRef = useRef(opts.onEvent);
  onEventRef.current = opts.onEvent;
  const lastTyping = useRef(0);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [state, setState] = useState<RoomState | null>(null);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  /** server time − local time, ms; added to Date.now() to read the server's clock. */
  const [skewMs, setSkewMs] = useState(0);
  const sockRef = useRef<RoomSocket | null>(null);
  const stateSeq = useRef(-1);

  const refreshState = useCallback(async () => {
    try {
      const s = await api.state(roomId);
      if (s.seq >= stateSeq.current) {
        stateSeq.current = s.seq;
        setState(s);
      }
    } catch (e) {
      setError((e as Error).message);
    }
  }, [roomId]);

  useEffect(() => {
    let stateTimer: ReturnType<typeof setTimeout> | undefined;
    stateSeq.current = -1;
    setEntries([]);
    setState(null);
    setPresence(null);
    setStatus('connecting');
    void refreshState();
    const sock = RoomSocket.open({ url: wsUrl(), token, clientProtocolVersion: CLIENT_PROTOCOL_VERSION });
    sockRef.current = sock;
    const offs = [
      sock.live.on('status', (s) => {
        setStatus(s === 'live' ? 'live' : s === 'connecting' ? 'connecting' : 'offline');
        // Live again (re-subscribed from the last seq shown): an earlier connection error is stale.
        if (s === 'live') setError(null);
      }),
      sock.live.on('welcome', (w) => setSkewMs(w.server_time_ms - Date.now())),
      sock.live.on('error', (e) => setError(`${e.code}: ${e.message}`)),
      sock.onRoomError((e) => setError(`${e.code}: ${e.message}`)),
      sock.onEvent((id, ev) => {
        if (id !== roomId) return;
        if (ev.t === 'presence') setPresence(ev as PresenceEvent);
        onEventRef.current?.(ev);
      }),
      sock.on((id, ev) => {
        if (id !== roomId) return;
        if (ev.event === 'entry') {
          const entry: Entry = ev.entry;
          setEntries((prev) => {
            const next = [...prev, entry];
            return next.length > MAX_ENTRIES ? next.slice(next.length - MAX_ENTRIES) : next;
          });
          // A state push normally follows; if none arrives, read the state over REST.
          clearTimeout(stateTimer);
          stateTimer = setTimeout(() => {
            if (stateSeq.current < entry.seq) void refreshState();
          }, 400);
        } else if (ev.state.seq >= stateSeq.current) {
          stateSeq.current = ev.state.seq;
          setState(ev.state);
        }
      }),
    ];
    sock
      .subscribe(roomId, { since: -1, ...(withEvents ? { events: true } : {}) })
      .then(() => setError(null))
      .catch((e: Error & { code?: string }) => setError(e.code ? `${e.code}: ${e.message}` : e.message));
    return () => {
      clearTimeout(stateTimer);
      for (const off of offs) off();
      if (sockRef.current === sock) sockRef.current = null;
      sock.close();
    };
  }, [roomId, token, refreshState, withEvents]);

  /** This seat is editing a draft: a typing signal, at most one per TYPING_EVERY_MS. */
  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = now;
    sockRef.current?.typing(roomId);
  }, [roomId]);

  const act = useCallback(
    (seat: string, action: unknown, turnToken?: string | null): Promise<Ack> => {
      const sock = sockRef.current;
      const body: ActionBody = {
        seat,
        action: action as ActionBody['action'],
        client_nonce: crypto.randomUUID(),
        ...(turnToken ? { turn_token: turnToken } : {}),
      };
      // Without a live socket the REST route does the same job.
      if (sock?.live.status === 'live') return sock.act(roomId, body);
      return api.act(roomId, body);
    },
    [roomId],
  );

  return { entries, state, status, error, skewMs, act, refreshState, presence, typing };
}
