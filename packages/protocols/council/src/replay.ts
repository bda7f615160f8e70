import { type ApplyResult, hashCanonical } from '@db8/core';
import { z } from 'zod';
import { CouncilActionSchema } from './actions.ts';
import { CouncilConfigSchema } from './config.ts';
import { council } from './protocol.ts';
import type { CouncilState } from './state.ts';

/**
 * A council run's log as a local runner records it (the server's log carries the same inputs):
 * the genesis (config, seed, time) and every accepted action and tick, with its seq and `now`.
 * `refold` replays it through the protocol; any refusal or divergence is reported, not repaired.
 */

export const CouncilLogEntrySchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('action'),
      seq: z.number().int().positive(),
      now: z.number().int(),
      seat: z.string(),
      action: CouncilActionSchema,
    })
    .strict(),
  z.object({ kind: z.literal('tick'), seq: z.number().int().positive(), now: z.number().int() }).strict(),
]);
export type CouncilLogEntry = z.infer<typeof CouncilLogEntrySchema>;

export const CouncilLogSchema = z
  .object({
    format: z.literal('db8.council.log/v1'),
    protocol: z.literal('council'),
    version: z.number().int().positive(),
    genesis: z.object({ config: CouncilConfigSchema, seed: z.string(), now: z.number().int() }).strict(),
    entries: z.array(CouncilLogEntrySchema),
    /** SHA-256 of the canonical final state, as the runner saw it. */
    stateSha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type CouncilLog = z.infer<typeof CouncilLogSchema>;

export type RefoldResult =
  | { ok: true; state: CouncilState; stateSha256: string }
  | { ok: false; at: number; reason: string };

export function refold(log: CouncilLog): RefoldResult {
  if (log.version !== council.version)
    return { ok: false, at: 0, reason: `log version ${log.version} ≠ ${council.version}` };
  const config = log.genesis.config;
  let state = council.setup(config, {
    seats: council.seats(config),
    seed: log.genesis.seed,
    now: log.genesis.now,
  });
  let expectedSeq = 1;
  for (const e of log.entries) {
    if (e.seq !== expectedSeq)
      return { ok: false, at: e.seq, reason: `seq ${e.seq}, expected ${expectedSeq}` };
    expectedSeq += 1;
    if (e.kind === 'tick') {
      const t = council.tick(state, e.now, e.seq);
      if (!t) return { ok: false, at: e.seq, reason: 'a recorded tick had nothing to do' };
      state = t.state;
      continue;
    }
    const r: ApplyResult<CouncilState> = council.apply(state, {
      seat: e.seat,
      action: e.action,
      now: e.now,
      seq: e.seq,
    });
    if (!r.ok) return { ok: false, at: e.seq, reason: `${r.error.code}: ${r.error.message}` };
    state = r.state;
  }
  return { ok: true, state, stateSha256: hashCanonical(state) };
}
