// Reads a server-sent event stream with fetch: every event as it comes, and when the server ends it.
import { PATIENCE_MS } from '../../../../../test/patience.ts';

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface SseReader {
  status: number;
  events: SseEvent[];
  /** Resolves when the server ends the stream (rejects after the safety limit). */
  ended: Promise<void>;
  /** Resolves with the first event (from index `from`) that `pred` accepts. */
  next(pred: (e: SseEvent) => boolean, from?: number): Promise<SseEvent>;
  abort(): void;
}

export async function readSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  let done = false;
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    for (;;) {
      const { value, done: end } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (end) break;
      pending += decoder.decode(value, { stream: true });
      for (let i = pending.indexOf('\n\n'); i !== -1; i = pending.indexOf('\n\n')) {
        const block = pending.slice(0, i);
        pending = pending.slice(i + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
      }
      wake();
    }
    done = true;
    wake();
  })();
  const next = (pred: (e: SseEvent) => boolean, from = 0) =>
    new Promise<SseEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such event within ${PATIENCE_MS} ms (got ${events.length})`));
      }, PATIENCE_MS);
      function check() {
        const hit = events.slice(from).find(pred);
        if (hit || done) {
          clearTimeout(timer);
          waiters.delete(check);
          if (hit) resolve(hit);
          else reject(new Error(`the stream ended without such an event (got ${events.length})`));
        }
      }
      waiters.add(check);
      check();
    });
  return {
    status: res.status,
    events,
    ended: Promise.race([
      ended,
      new Promise<void>((_, reject) =>
        setTimeout(() => reject(new Error('the stream did not end')), PATIENCE_MS).unref(),
      ),
    ]),
    next,
    abort: () => ac.abort(),
  };
}
