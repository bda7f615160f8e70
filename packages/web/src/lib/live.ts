import { type ServerMessage, ServerMessageSchema } from '@db8/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, CLIENT_PROTOCOL_VERSION } from './api.ts';
import type { Ack, Entry, RoomState } from './types.ts';

// One room over the WebSocket: hello → welcome → subscribe (resume from the last seq seen) → entry
// and state pushes. Reconnects with backoff and resumes; actions go over the same socket and resolve
// on the matching ack or error. The server's clock is learnt from `welcome` so countdowns follow the
// server's deadline rather than this machine's clock.

export type LiveStatus = 'connecting' | 'live' | 'offline';

export type ActionError = { code: string; message: string; details?: unknown };

type Pending = { resolve: (a: Ack) => void; reject: (e: ActionError) => void };

const MAX_ENTRIES = 500;

export function wsUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/v1/ws`;
}

export function useRoomLive(roomId: string, token: string | null) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [state, setState] = useState<RoomState | null>(null);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  /** server time − local time, ms; added to Date.now() to read the server's clock. */
  const [skewMs, setSkewMs] = useState(0);
  const wsRef = useRef<WebSocket | null>(null);
  const pending = useRef(new Map<string, Pending>());
  const lastSeq = useRef(-1);
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
    let closed = false;
    let retry = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stateTimer: ReturnType<typeof setTimeout> | undefined;
    lastSeq.current = -1;
    stateSeq.current = -1;
    setEntries([]);
    setState(null);
    void refreshState();

    const connect = () => {
      setStatus('connecting');
      const ws = new WebSocket(wsUrl());
      wsRef.current = ws;
      const send = (msg: object) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(msg));
      ws.onopen = () => {
        // The token rides in hello, not the URL, so it stays out of access logs.
        send({
          type: 'hello',
          payload: { client_protocol_version: CLIENT_PROTOCOL_VERSION, ...(token ? { token } : {}) },
        });
      };
      ws.onmessage = (ev) => {
        // A socket replaced by a newer one (credentials changed) may still deliver: ignore it.
        if (closed || wsRef.current !== ws) return;
        let msg: ServerMessage;
        try {
          // The server's own schema: a message that does not match is dropped, not half-read.
          const r = ServerMessageSchema.safeParse(JSON.parse(String(ev.data)));
          if (!r.success) return;
          msg = r.data;
        } catch {
          return;
        }
        const waiting = msg.id ? pending.current.get(msg.id) : undefined;
        if (waiting && msg.id && (msg.type === 'ack' || msg.type === 'error')) pending.current.delete(msg.id);
        switch (msg.type) {
          case 'welcome':
            retry = 0;
            setSkewMs(msg.payload.server_time_ms - Date.now());
            send({ type: 'subscribe', payload: { room_id: roomId, since: lastSeq.current } });
            break;
          case 'subscribed':
            setStatus('live');
            setError(null);
            break;
          case 'entry': {
            const entry = msg.payload.entry;
            if (entry.seq <= lastSeq.current) break;
            lastSeq.current = entry.seq;
            setEntries((prev) => {
              const next = [...prev, entry];
              return next.length > MAX_ENTRIES ? next.slice(next.length - MAX_ENTRIES) : next;
            });
            // A state push normally follows; if none arrives, read the state over REST.
            clearTimeout(stateTimer);
            stateTimer = setTimeout(() => {
              if (stateSeq.current < entry.seq) void refreshState();
            }, 400);
            break;
          }
          case 'state': {
            const st = msg.payload;
            if (st.seq >= stateSeq.current) {
              stateSeq.current = st.seq;
              setState(st);
            }
            break;
          }
          case 'ack':
            waiting?.resolve(msg.payload);
            break;
          case 'error':
            if (waiting) waiting.reject(msg.payload);
            else setError(`${msg.payload.code}: ${msg.payload.message}`);
            break;
        }
      };
      ws.onclose = () => {
        // Only the current socket owns the shared refs; a replaced one closes quietly.
        if (wsRef.current !== ws) return;
        wsRef.current = null;
        for (const p of pending.current.values())
          p.reject({ code: 'DISCONNECTED', message: 'connection lost' });
        pending.current.clear();
        if (closed) return;
        setStatus('offline');
        const delay = Math.min(10_000, 500 * 2 ** retry++);
        timer = setTimeout(connect, delay);
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(stateTimer);
      const ws = wsRef.current;
      wsRef.current = null;
      // Closing a socket that is still connecting makes browsers log a warning: close it once open.
      if (ws?.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
      else ws?.close();
    };
  }, [roomId, token, refreshState]);

  const act = useCallback(
    (seat: string, action: unknown, turnToken?: string | null): Promise<Ack> => {
      const ws = wsRef.current;
      const body = {
        seat,
        action,
        client_nonce: crypto.randomUUID(),
        ...(turnToken ? { turn_token: turnToken } : {}),
      };
      // Without a live socket the REST route does the same job.
      if (!ws || ws.readyState !== WebSocket.OPEN) return api.act(roomId, body);
      const id = crypto.randomUUID();
      return new Promise<Ack>((resolve, reject) => {
        pending.current.set(id, { resolve, reject });
        ws.send(JSON.stringify({ type: 'action', id, payload: { room_id: roomId, ...body } }));
      });
    },
    [roomId],
  );

  return { entries, state, status, error, skewMs, act, refreshState };
}
