import { type PublicEntry, type Reveal, verifyReveal } from '@db8/core';
import type { Entry } from './types.ts';

// Commit–reveal in the log: a sealed entry carries only a commitment; a later entry's `reveals`
// publishes its payload and salt. Here each revealed entry is paired with its reveal, and the
// reveal is checked against the commitment in this browser.

export type Revealed = { by: number; payload: unknown; ok: boolean };

export function revealIndex(entries: readonly Entry[]): Map<number, Revealed> {
  const bySeq = new Map(entries.map((e) => [e.seq, e]));
  const out = new Map<number, Revealed>();
  for (const e of entries) {
    for (const r of e.reveals ?? []) {
      const committed = bySeq.get(r.seq);
      let ok = false;
      try {
        ok = committed !== undefined && verifyReveal(committed as unknown as PublicEntry, r as Reveal);
      } catch {
        ok = false;
      }
      out.set(r.seq, { by: e.seq, payload: r.payload, ok });
    }
  }
  return out;
}
