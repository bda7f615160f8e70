// Debate checks over a journal bundle, offline, after the generic checks (leaves, checkpoints,
// commit–reveal) pass: every published submission's hash and signature again, from the bundle
// alone, and the round chain (seed §5) recomputed up to the head the results name.
import { type PublicEntry, parseJournalText } from '@db8/core';
import {
  type ChainRound,
  checkProvenance,
  checkRoundChain,
  DebateConfigSchema,
  normalizeKey,
  ResultsSchema,
  type SubmitAction,
  SubmitActionSchema,
  signedBytes,
  submissionBytes,
  ZERO_CHAIN,
} from '../rules/index.ts';

export interface DebateJournalReport {
  ok: boolean;
  room: string | null;
  /** Published submissions found in the bundle's reveals. */
  submissions: number;
  signedByKey: number;
  signedByCertificate: number;
  unsigned: number;
  /** Rounds whose publish entry was found. */
  rounds: number;
  chain: string;
  /** The chain head the close entry's results name (null when the room has not closed). */
  resultChain: string | null;
  failures: string[];
}

type Entry = PublicEntry & { reveals?: Array<{ seq: number; payload: unknown }> };

export function checkDebateJournal(text: string): DebateJournalReport {
  const failures: string[] = [];
  const { records } = parseJournalText(text);
  const entries = new Map<number, Entry>();
  let room: string | null = null;
  for (const { value } of records) {
    const r = value as { type?: string; entry?: Entry; room?: string };
    if (r.type === 'db8-journal' && typeof r.room === 'string') room = r.room;
    if (r.type === 'entry' && r.entry) entries.set(r.entry.seq, r.entry);
  }
  const report: DebateJournalReport = {
    ok: false,
    room,
    submissions: 0,
    signedByKey: 0,
    signedByCertificate: 0,
    unsigned: 0,
    rounds: 0,
    chain: ZERO_CHAIN,
    resultChain: null,
    failures,
  };
  const genesis = entries.get(0)?.payload as { protocol?: string; config?: unknown } | undefined;
  if (genesis?.protocol !== 'debate') {
    failures.push('not a debate room (the genesis entry names another protocol)');
    return report;
  }
  const config = DebateConfigSchema.safeParse(genesis.config);
  if (!config.success) {
    failures.push('the genesis config is not a debate config');
    return report;
  }
  const cfg = config.data;
  if (cfg.room_id !== null && cfg.room_id !== room)
    failures.push(`config room_id ${cfg.room_id} is not this room (${room})`);
  const caKeys = cfg.trust.ca_keys.map((k) => normalizeKey(k)!);
  // Keys per seat as of a seq: config keys, then public register_key entries in log order.
  const registered: Array<{ seq: number; seat: string; key: string }> = [];
  for (const e of [...entries.values()].sort((a, b) => a.seq - b.seq)) {
    const p = e.payload as { type?: string; public_key?: string } | undefined;
    if (e.kind === 'action' && p?.type === 'register_key' && typeof p.public_key === 'string') {
      const key = normalizeKey(p.public_key);
      if (key) registered.push({ seq: e.seq, seat: e.actor, key });
    }
  }
  const keysAt = (seat: string, seq: number) => [
    ...(cfg.trust.keys[seat] ?? []).map((k) => normalizeKey(k)!),
    ...registered.filter((r) => r.seat === seat && r.seq < seq).map((r) => r.key),
  ];

  const rounds: ChainRound[] = [];
  for (const e of [...entries.values()].sort((a, b) => a.seq - b.seq)) {
    const subs: Array<{ seq: number; action: SubmitAction }> = [];
    for (const rv of e.reveals ?? []) {
      const a = SubmitActionSchema.safeParse(rv.payload);
      if (a.success) subs.push({ seq: rv.seq, action: a.data });
    }
    if (subs.length === 0) continue;
    report.rounds++;
    for (const { seq, action } of subs) {
      report.submissions++;
      const sealed = entries.get(seq);
      const where = `seq ${seq} (${action.author_id}, ${action.round_id})`;
      if (!sealed || sealed.actor !== action.author_id) {
        failures.push(`${where}: the revealed submission is not the author's own entry`);
        continue;
      }
      const bytes = submissionBytes(action);
      const trust = {
        keys: keysAt(action.author_id, seq),
        caKeys,
        principal: `${action.author_id}@${action.room_id}`,
      };
      const signed = signedBytes(action, bytes);
      const prov = signed.ok
        ? checkProvenance(action, signed.bytes, trust, sealed.ts)
        : { ok: false as const, reason: signed.reason };
      if (!prov.ok) failures.push(`${where}: signature does not verify offline: ${prov.reason}`);
      else if (prov.signature.kind === 'server') report.unsigned++;
      else if (prov.signature.via === 'certificate') report.signedByCertificate++;
      else report.signedByKey++;
      if (cfg.room_id !== null && action.room_id !== cfg.room_id)
        failures.push(`${where}: names room ${action.room_id}`);
    }
    rounds.push({
      label: `seq ${e.seq}`,
      submissions: subs.map((s) => ({ author: s.action.author_id, payload: s.action })),
    });
  }
  // The round chain: the same check the web room's journal badge runs over the view.
  const checked = checkRoundChain(rounds);
  if (!checked.ok) failures.push(checked.reason);
  const chain = checked.ok ? checked.head : ZERO_CHAIN;
  report.chain = chain;
  const close = [...entries.values()].find((e) => e.kind === 'close');
  const result = ResultsSchema.safeParse((close?.payload as { result?: unknown } | undefined)?.result);
  if (result.success) {
    report.resultChain = result.data.chain;
    if (result.data.chain !== chain)
      failures.push(`round chain ${chain} differs from the results' ${result.data.chain}`);
  }
  report.ok = failures.length === 0;
  return report;
}
