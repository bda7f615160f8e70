import type { PublicEntry } from '@db8/core';
import type { Bus, ModuleRuntime as Runtime } from '@db8/server/kit';
import { z } from 'zod';
import type { BridgeEvent } from './bridge.ts';

/**
 * Turns this node's entry fan-out into bridge events. The bus may drop or delay an entry, so an
 * entry is only a nudge: each nudge reads the room's view and emits whatever lies past the room's
 * cursor (messages and summaries carry their entry seq), one sync at a time per room. A room open
 * when the watcher starts is announced as resumed and only later entries are relayed; so is history
 * the node folds while catching up on the stream after the start (stream time before the start, less
 * a minute of grace): a restarted or new node does not replay days of rooms into a bridge.
 */

const Str = z.string();
const ViewSchema = z.object({
  question: z.object({
    id: Str,
    text: Str,
    tags: z.array(Str),
    scope: Str,
    askerNode: Str,
    asker: Str,
    createdAt: z.number(),
    deadline: z.number(),
    followUps: z.boolean(),
    modelsRequire: z.array(Str),
    modelsExclude: z.array(Str),
    minReputation: z.number().nullable(),
    languages: z.array(Str),
  }),
  status: z.enum(['open', 'closed', 'expired']),
  messages: z.array(
    z.object({
      seq: z.number(),
      id: Str,
      at: z.number(),
      kind: z.enum(['answer', 'follow-up', 'clarification']),
      text: Str,
      author: Str,
      origin: z.enum(['node-generated', 'node-mediated-human', 'human-live']),
      speaker: Str,
      gateway: Str,
      verdict: z.enum(['accept', 'reject']).nullable(),
    }),
  ),
  summaries: z.array(
    z.object({
      seq: z.number(),
      id: Str,
      at: z.number(),
      author: Str,
      role: z.enum(['asker', 'secretary', 'participant']),
      status: z.enum(['intermediate', 'final']),
      facts: z.array(Str),
      hypotheses: z.array(Str),
      recommendations: z.array(Str),
      uncertainty: z.number(),
    }),
  ),
  close: z
    .object({
      resolution: Str,
      by: Str.nullable(),
      role: z.enum(['asker', 'secretary', 'deadline']),
      acceptedSummary: Str.nullable(),
      at: z.number(),
    })
    .nullable(),
});

interface Watched {
  cursor: number;
  running: Promise<void> | null;
  dirty: boolean;
  ended: boolean;
}

/** At most this many non-question room ids are remembered (then the set starts over). */
const KEEP_IGNORED = 10_000;
/** Entries stamped this long before the watcher started still count as live. */
const LIVE_GRACE_MS = 60_000;

export interface RoomWatch {
  /** Resolves once the rooms open at start have been announced. */
  ready: Promise<void>;
  stop(): void;
}

export function watchQuestionRooms(runtime: Runtime, bus: Bus, emit: (e: BridgeEvent) => void): RoomWatch {
  const rooms = new Map<string, Watched>();
  const ignored = new Set<string>();
  let stopped = false;
  const since = Date.now() - LIVE_GRACE_MS;

  const read = async (roomId: string) => {
    const st = await runtime.stateFor(roomId, { kind: 'observer' });
    return { seq: st.seq, view: ViewSchema.parse(st.view) };
  };

  const sync = async (roomId: string, w: Watched): Promise<void> => {
    const { seq, view } = await read(roomId);
    const questionId = view.question.id;
    const items: Array<{ seq: number; e: BridgeEvent }> = [
      ...view.messages
        .filter((m) => m.seq > w.cursor && m.at >= since)
        .map((message) => ({
          seq: message.seq,
          e: { kind: 'message', roomId, questionId, message } as const,
        })),
      ...view.summaries
        .filter((s) => s.seq > w.cursor && s.at >= since)
        .map((summary) => ({
          seq: summary.seq,
          e: { kind: 'summary', roomId, questionId, summary } as const,
        })),
    ];
    for (const { e } of items.sort((a, b) => a.seq - b.seq)) emit(e);
    w.cursor = Math.max(w.cursor, seq);
    if (view.status !== 'open' && !w.ended) {
      w.ended = true;
      emit({ kind: 'close', roomId, questionId, status: view.status, close: view.close });
    }
  };

  // Coalesces nudges: while a sync runs, further entries only mark the room dirty.
  const nudge = (roomId: string, w: Watched) => {
    if (w.running) {
      w.dirty = true;
      return;
    }
    w.running = (async () => {
      do {
        w.dirty = false;
        try {
          await sync(roomId, w);
        } catch {
          // A read failing (room being closed, store busy) is retried by the next entry's nudge.
        }
      } while (w.dirty && !stopped);
      w.running = null;
      if (w.ended) {
        rooms.delete(roomId);
        ignored.add(roomId);
      }
    })();
  };

  /** `from`: relay entries after this seq (genesis: 0; a room found open at start: its head). */
  const open = async (roomId: string, resumed: boolean, from?: number): Promise<void> => {
    const row = await runtime.store.rooms.get(roomId);
    if (row?.protocol !== 'question') {
      if (ignored.size >= KEEP_IGNORED) ignored.clear();
      ignored.add(roomId);
      return;
    }
    if (rooms.has(roomId) || stopped) return;
    const { seq, view } = await read(roomId);
    if (resumed && view.status !== 'open') {
      ignored.add(roomId);
      return;
    }
    const w: Watched = { cursor: from ?? seq, running: null, dirty: false, ended: false };
    rooms.set(roomId, w);
    emit({ kind: 'open', roomId, question: view.question, resumed });
    nudge(roomId, w);
  };

  const pending = new Map<string, Promise<void>>();
  const onEntry = (entry: PublicEntry) => {
    if (stopped || ignored.has(entry.room)) return;
    const w = rooms.get(entry.room);
    if (w) return nudge(entry.room, w);
    // Unknown room: find out once whether it is a question room (its genesis, or one missed).
    if (pending.has(entry.room)) return;
    const genesis = entry.kind === 'genesis' && entry.ts >= since;
    const p = open(entry.room, !genesis, genesis ? 0 : entry.seq - 1)
      .catch(() => {})
      .finally(() => pending.delete(entry.room));
    pending.set(entry.room, p);
  };

  const unsubscribe = bus.subscribe('*', onEntry);
  const ready = (async () => {
    let cursor: string | undefined;
    for (;;) {
      const page = await runtime.store.rooms.list({
        protocol: 'question',
        status: 'open',
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      for (const r of page.rooms) await open(r.id, true).catch(() => {});
      if (!page.nextCursor || stopped) return;
      cursor = page.nextCursor;
    }
  })();

  return {
    ready,
    stop() {
      stopped = true;
      unsubscribe();
    },
  };
}
