// Scripted debate seats over the SDK: each follows its seat's state over the reconnecting socket and
// acts as @db8/agents/debate's script says, like any remote participant. Used by `db8 demo debate`,
// the end-to-end test and the benchmark.

import type { Db8Client } from '@db8/sdk';
import { type ScriptOptions, scriptedDecisions } from '../agent/index.ts';
import { type DebateView, type LegalAction, submissionBytes } from '../rules/index.ts';

export type SignFields = {
  signature_kind: 'ssh' | 'ed25519';
  signature_b64: string;
  signer_fingerprint?: string;
};

export interface ActRecord {
  seat: string;
  key: string;
  type: string;
  /** Request round trip, ms. */
  ms: number;
  ok: boolean;
  code?: string;
}

export interface SeatDriverOptions {
  /** A client holding the seat's session token. */
  client: Db8Client;
  roomId: string;
  seat: string;
  script?: ScriptOptions;
  /** Sign a submission's canonical bytes (`submissionBytes`). */
  sign?: (bytes: Uint8Array) => SignFields;
  /** A public key to register for the seat before its first submission (plain-key signers). */
  registerKey?: string;
  signal?: AbortSignal;
  onAct?: (r: ActRecord) => void;
  now?: () => number;
}

/** Follow the seat until the room closes (or the signal aborts). Resolves with every act made. */
export async function driveSeat(o: SeatDriverOptions): Promise<ActRecord[]> {
  const done = new Set<string>();
  const acts: ActRecord[] = [];
  const now = o.now ?? (() => performance.now());
  const send = async (key: string, action: Record<string, unknown>) => {
    done.add(key);
    const t0 = now();
    let rec: ActRecord;
    try {
      await o.client.act(o.roomId, {
        seat: o.seat,
        action: action as never,
        client_nonce: `${o.seat}:${key}`,
      });
      rec = { seat: o.seat, key, type: String(action.type), ms: now() - t0, ok: true };
    } catch (e) {
      const code = (e as { code?: string }).code ?? 'ERROR';
      rec = { seat: o.seat, key, type: String(action.type), ms: now() - t0, ok: false, code };
    }
    acts.push(rec);
    o.onAct?.(rec);
  };
  const events = o.client.follow(o.roomId, o.signal ? { signal: o.signal } : {});
  try {
    for await (const ev of events) {
      if (ev.event !== 'state') continue;
      const st = ev.state;
      if (st.status === 'closed') break;
      // The server's own schema produced the view; a scripted seat only checks what it is.
      const view = st.view as DebateView | null;
      if (view?.protocol !== 'debate') continue;
      const legal = (st.legal?.actions ?? []) as LegalAction[];
      if (o.registerKey && !done.has('register_key') && legal.some((l) => l.type === 'register_key')) {
        await send('register_key', { type: 'register_key', public_key: o.registerKey });
      }
      for (const d of scriptedDecisions(o.seat, view, legal, o.script)) {
        if (done.has(d.key)) continue;
        let action: Record<string, unknown> = d.action;
        if (d.action.type === 'submit' && o.sign)
          action = { ...d.action, ...o.sign(submissionBytes(d.action)) };
        await send(d.key, action);
      }
    }
  } catch (e) {
    if (!o.signal?.aborted) throw e;
  }
  return acts;
}
