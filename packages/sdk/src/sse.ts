import { timerDelay } from '@db8/core';
import { errorFromBody } from './errors.ts';
import { lines } from './lines.ts';

export interface SseEvent {
  /** `entry`, `state`, `error` … */
  event: string;
  /** The entry's seq for `entry` events (what Last-Event-ID resumes from). */
  id: string | null;
  data: unknown;
}

export interface EventsOptions {
  url: string;
  token?: string | null;
  /** Resume after this seq (sent as Last-Event-ID). -1 = from the start. */
  since?: number;
  signal?: AbortSignal;
  /** Reconnect (resuming from the last id seen) when the stream ends or fails. Default false. */
  reconnect?: boolean;
  /** Delay before reconnecting, ms (the server may override with `retry:`). */
  retryMs?: number;
  fetch?: typeof fetch;
}

/** Parse a text/event-stream body (WHATWG rules: event/data/id/retry fields, comments, blank-line dispatch). */
export async function* parseSse(res: Response): AsyncGenerator<SseEvent & { retry?: number }> {
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  let retry: number | undefined;
  for await (const line of lines(res)) {
    if (line === '') {
      if (data.length > 0) {
        const text = data.join('\n');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // plain-text data stays a string
        }
        yield { event: event || 'message', id, data: parsed, ...(retry !== undefined ? { retry } : {}) };
      }
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
}

/** Server-sent events with optional resume-and-reconnect. */
export async function* sseEvents(opts: EventsOptions): AsyncGenerator<SseEvent> {
  const f = opts.fetch ?? globalThis.fetch.bind(globalThis);
  let lastId: string | null = opts.since !== undefined ? String(opts.since) : null;
  let delay = opts.retryMs ?? 1000;
  for (;;) {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (lastId !== null) headers['last-event-id'] = lastId;
    let res: Response;
    try {
      res = await f(opts.url, { headers, ...(opts.signal ? { signal: opts.signal } : {}) });
    } catch (e) {
      if (!opts.reconnect || opts.signal?.aborted) throw e;
      await sleep(delay, opts.signal);
      continue;
    }
    if (!res.ok) {
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // keep status
      }
      throw errorFromBody(res.status, body, res.statusText);
    }
    try {
      for await (const ev of parseSse(res)) {
        if (ev.retry !== undefined) delay = ev.retry;
        if (ev.id !== null) lastId = ev.id;
        yield { event: ev.event, id: ev.id, data: ev.data };
      }
    } catch (e) {
      if (!opts.reconnect || opts.signal?.aborted) throw e;
    }
    if (!opts.reconnect || opts.signal?.aborted) return;
    await sleep(delay, opts.signal);
  }
}

// Resolves after `ms` or on abort; removes its abort listener either way, so a long-lived
// reconnecting stream does not pile up listeners on the caller's signal.
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
