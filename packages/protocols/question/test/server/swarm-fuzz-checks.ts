// What must hold on every node after any swarm message sequence (issue 23): every read answers
// below 500, no number in a view is NaN or infinite, every time is one a Date can hold, and each
// room's copy has a Merkle root to compare across nodes.
import { entryLeafHash, rootOf, toHex } from '@db8/core';

/** A read of one node: status and JSON body. */
export type Read = (path: string) => Promise<{ status: number; json: unknown }>;

const TIME_KEYS = new Set([
  'at',
  'createdAt',
  'deadline',
  'since',
  'joinedAt',
  'askerLastSeen',
  'deadline_unix',
]);
const MAX_DATE_MS = 8.64e15;

/** Every number finite; every time field a whole ms a Date can hold. Returns the bad paths. */
export function badNumbers(v: unknown, path = '$', out: string[] = []): string[] {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) out.push(`${path}: ${v}`);
    const key = path.slice(path.lastIndexOf('.') + 1);
    if (TIME_KEYS.has(key) && !(Number.isSafeInteger(v) && Math.abs(v) <= MAX_DATE_MS))
      out.push(`${path}: ${v}`);
  } else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) badNumbers(x, `${path}[${i}]`, out);
  } else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) badNumbers(x, `${path}.${k}`, out);
  return out;
}

/**
 * Reads every swarm view a node serves; each must answer below 500 and hold no bad number.
 * Returns room id → Merkle root of the node's copy (from its entries).
 */
export async function checkReads(
  read: Read,
  only: (questionId: string) => boolean = () => true,
): Promise<Map<string, string>> {
  const fail = (what: string, r: { status: number; json: unknown }) => {
    throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
  };
  const node = await read('/v1/swarm/node');
  if (node.status >= 500) fail('/v1/swarm/node', node);
  const list = await read('/v1/swarm/questions?status=all&limit=500');
  if (list.status !== 200) fail('list', list);
  const roots = new Map<string, string>();
  const bad = badNumbers(list.json);
  for (const q of (list.json as { questions: Array<{ question_id: string; room_id: string }> }).questions) {
    if (!only(q.question_id)) continue;
    const qid = encodeURIComponent(q.question_id);
    for (const p of [
      `/v1/swarm/questions/${qid}`,
      `/v1/swarm/questions/${qid}/metadata`,
      `/v1/rooms/${q.room_id}`,
    ]) {
      const r = await read(p);
      if (r.status !== 200) fail(p, r);
      bad.push(...badNumbers(r.json, p));
    }
    const entries = await read(`/v1/rooms/${q.room_id}/entries?fromSeq=0&limit=1000`);
    if (entries.status !== 200) fail('entries', entries);
    const list = (entries.json as { entries: never[] }).entries;
    roots.set(q.room_id, toHex(rootOf(list.map((e) => entryLeafHash(e)))));
  }
  if (bad.length > 0) throw new Error(`bad numbers: ${bad.slice(0, 10).join(', ')}`);
  return roots;
}
