// Following a debate over the SDK's reconnecting socket: a banner when the phase, round or deadline changes,
// the whole round when it is published, the results at the end. `db8 debate watch` and the demo.

import type { Db8Client } from '@db8/sdk';
import { type DebateResult, type DebateView, DebateViewSchema } from '../rules/index.ts';
import { bannerKey, phaseBanner, resultLines, roundLines } from './format.ts';

export interface WatchOptions {
  print: (line: string) => void | Promise<void>;
  signal?: AbortSignal;
  /** Identity → display name for the results. */
  names?: Record<string, string>;
  now?: () => number;
}

/** Resolves with the final view when the room closes (null if aborted first). */
export async function watchDebate(
  client: Db8Client,
  roomId: string,
  o: WatchOptions,
): Promise<DebateView | null> {
  const now = o.now ?? Date.now;
  let lastBanner = '';
  const printed = new Set<number>();
  let tallies = 0;
  const events = client.follow(roomId, { since: -1, ...(o.signal ? { signal: o.signal } : {}) });
  let last: DebateView | null = null;
  try {
    for await (const ev of events) {
      if (ev.event !== 'state') continue;
      const st = ev.state;
      const parsed = DebateViewSchema.safeParse(st.view);
      if (!parsed.success) continue;
      const view = parsed.data;
      last = view;
      for (const r of view.rounds) {
        if (r.published_at !== null && !printed.has(r.index)) {
          printed.add(r.index);
          for (const l of roundLines(r)) await o.print(l);
        }
      }
      const done = view.rounds.filter((r) => r.continue_vote?.tally).length;
      if (done > tallies) {
        tallies = done;
        const t = view.rounds.filter((r) => r.continue_vote?.tally).at(-1)!.continue_vote!.tally!;
        await o.print(`── continue vote: ${t.continue} continue, ${t.end} end → ${t.outcome} (${t.by})`);
      }
      const key = bannerKey(view);
      if (key !== lastBanner) {
        lastBanner = key;
        await o.print(phaseBanner(view, now()));
      }
      if (st.status === 'closed' || view.phase === 'closed') {
        if (view.results)
          for (const l of resultLines(view.results as DebateResult, o.names)) await o.print(l);
        return view;
      }
    }
  } catch (e) {
    if (!o.signal?.aborted) throw e;
  }
  return o.signal?.aborted ? null : last;
}
