import type { PresenceEvent } from '@db8/core';
import { type ActionBody, RoomSocket, type TypedRoomEvent } from '@db8/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, CLIENT_PROTOCOL_VERSION } from './api.ts';
import { errorText } from './query.ts';
import { viewerOf, webKeys } from './query-keys.ts';
import type { Ack, Entry, RoomState } from './types.ts';

// One room over the SDK's reconnecting socket: it says hello (the token rides in hello, not the
// URL), subscribes from the start of the log, and after a drop resumes from the last seq it
// delivered, so each entry arrives once, in order. Actions go over the same socket and resolve on
// the ack or the server's typed error. The server's clock is learnt from `welcome` so countdowns
// follow the server's deadline rather than this machine's clock.
// The state is a query (webKeys.roomState) the socket's pushes write into; the room's other reads
// (webKeys.room: its info, a module's room-scoped reads) are invalidated as entries arrive, so no
// page of a live room polls.

export type LiveStatus = 'connecting' | 'live' | 'offline';

export type ActionError = { code: string; message: string; details?: unknown };

const MAX_ENTRIES = 500;

export function wsUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/v1/ws`;
}

/** Keeps the newer of two states: a REST read that raced a push must not roll the view back. */
const newer = (prev: RoomState | undefined, next: RoomState): RoomState =>
  prev && prev.seq > next.seq ? prev : next;

/** The room's reads are refreshed when an entry arrives, then at most once per this window while
 *  more arrive (and once after it, for the last ones); the state is read over REST only if no push
 *  has brought it up to the last entry by the window's end. */
const SETTLE_MS = 400;

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
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  /** server time − local time, ms; added to Date.now() to read the server's clock. */
  const [skewMs, setSkewMs] = useState(0);
  const sockRef = useRef<RoomSocket | null>(null);
  // Built from primitives so effects can depend on the key itself (a new array each render would
  // reconnect the socket on every render).
  const viewer = viewerOf(roomId);
  const stateKey = useMemo(() => webKeys.roomState(roomId, viewer), [roomId, viewer]);
  const stateQuery = useQuery({
    queryKey: stateKey,
    queryFn: async () => {
      const read = await api.state(roomId);
      // The cache as it is when the read lands, not as it was when it left: a push that arrived in
      // between is newer than this read (reading it first let the page roll back, 14 played to 12).
      return newer(queryClient.getQueryData<RoomState>(stateKey), read);
    },
  });
  const state = stateQuery.data ?? null;

  const refreshState = useCallback(
    () => queryClient.invalidateQueries({ queryKey: stateKey }),
    [queryClient, stateKey],
  );

  useEffect(() => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    let lastSeq = -1;
    let refreshedSeq = -1;
    setEntries([]);
    setPresence(null);
    setStatus('connecting');
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
          // The log grew: the room's reads (seats, status, a module's lists) are stale. A state push
          // normally follows; if none has arrived by then, read the state over REST.
          lastSeq = entry.seq;
          if (settle === undefined) {
            refreshedSeq = entry.seq;
            void queryClient.invalidateQueries({ queryKey: webKeys.room(roomId) });
            settle = setTimeout(() => {
              settle = undefined;
              if (refreshedSeq < lastSeq)
                void queryClient.invalidateQueries({ queryKey: webKeys.room(roomId) });
              const shown = queryClient.getQueryData<RoomState>(stateKey);
              if (!shown || shown.seq < lastSeq) void queryClient.invalidateQueries({ queryKey: stateKey });
            }, SETTLE_MS);
          }
        } else {
          queryClient.setQueryData<RoomState>(stateKey, (prev) => newer(prev, ev.state));
        }
      }),
    ];
    sock
      .subscribe(roomId, { since: -1, ...(withEvents ? { events: true } : {}) })
      .then(() => setError(null))
      .catch((e: Error & { code?: string }) => setError(e.code ? `${e.code}: ${e.message}` : e.message));
    return () => {
      clearTimeout(settle);
      for (const off of offs) off();
      if (sockRef.current === sock) sockRef.current = null;
      sock.close();
    };
  }, [roomId, token, stateKey, queryClient, withEvents]);

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

  const readError = stateQuery.error ? errorText(stateQuery.error) : null;
  return { entries, state, status, error: error ?? readError, skewMs, act, refreshState, presence, typing };
}
