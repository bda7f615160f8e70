// Synthetic journal bundles built with the core builders alone (no server): a small room whose log
// has a genesis with a seed commitment, joins, a sealed entry, a reveal and a close with the seed.
import { fromHex, toHex } from '../src/crypto/bytes.ts';
import { publicKeyFromSeed } from '../src/crypto/ed25519.ts';
import { sha256Hex } from '../src/crypto/hash.ts';
import {
  type JournalRecord,
  JournalWriter,
  journalCheckpoint,
  journalKey,
  type ViewerClass,
} from '../src/journal/index.ts';
import { commitmentOf, entryLeafHash, type PublicEntry, type StoredEntry } from '../src/log/index.ts';
import { MerkleLog } from '../src/merkle/index.ts';
import { ed25519Signer, roomOrigin, signCheckpoint } from '../src/note/index.ts';
import { formatSshPublicKey, signSshsig } from '../src/ssh/index.ts';

export const ROOM = 'room_test0001';
export const ORIGIN = roomOrigin('db8.test', ROOM);
export const SEED = 'ab'.repeat(32);

export type TestKey = { seed: Uint8Array; name: string };
export const KEY: TestKey = { seed: new Uint8Array(32).fill(1), name: 'db8.test' };
export const ROGUE: TestKey = { seed: new Uint8Array(32).fill(2), name: 'db8.test' };

export function vkeyOf(k: TestKey): string {
  return ed25519Signer(k.name, k.seed).verifier.vkey;
}
export function sshLineOf(k: TestKey): string {
  return formatSshPublicKey(publicKeyFromSeed(k.seed), 'test');
}

const salt = (n: number) => n.toString(16).padStart(64, '0');

/** The room's stored entries (sealed payloads included). */
export function roomEntries(): StoredEntry[] {
  const base = (seq: number) => ({ v: 1 as const, room: ROOM, seq, ts: 1_000 + seq });
  const pub = { kind: 'public' } as const;
  const sealed = (seq: number, payload: { [k: string]: string | number }) => {
    const s = { payload, salt: salt(seq) };
    return { commit: commitmentOf(s), sealed: s };
  };
  const bid = sealed(3, { type: 'bid', amount: 150 });
  const other = sealed(4, { type: 'bid', amount: 90 });
  const join1 = sealed(1, { seat: 'p1', principal: 'ann' });
  const entries: StoredEntry[] = [
    {
      ...base(0),
      kind: 'genesis',
      actor: 'system',
      vis: pub,
      payload: { protocol: 'auction', version: 2, seedCommit: sha256Hex(fromHex(SEED)) },
    },
    { ...base(1), kind: 'join', actor: 'p1', vis: { kind: 'admin' }, ...join1 },
    { ...base(2), kind: 'action', actor: 'p2', vis: pub, payload: { type: 'note', text: 'hello' } },
    { ...base(3), kind: 'action', actor: 'p1', vis: { kind: 'seat', seat: 'p1' }, ...bid },
    { ...base(4), kind: 'action', actor: 'p2', vis: { kind: 'seat', seat: 'p2' }, ...other },
    {
      ...base(5),
      kind: 'tick',
      actor: 'system',
      vis: pub,
      payload: { phase: 'reveal' },
      reveals: [
        { seq: 3, ...bid.sealed },
        { seq: 4, ...other.sealed },
      ],
    },
    { ...base(6), kind: 'action', actor: 'p2', vis: pub, payload: { type: 'note', text: 'gg' } },
    {
      ...base(7),
      kind: 'close',
      actor: 'system',
      vis: pub,
      payload: { seed: SEED, result: { winner: 'p1' } },
      reveals: [{ seq: 1, ...join1.sealed }],
    },
  ];
  return entries;
}

/** Signed note + SSHSIG records for a checkpoint of the first `size` public entries. */
export function checkpointFor(entries: readonly PublicEntry[], size: number, key: TestKey = KEY) {
  const tree = MerkleLog.fromLeafHashes(entries.slice(0, size).map((e) => entryLeafHash(e)));
  const rootHash = tree.root();
  const note = signCheckpoint({ origin: ORIGIN, size, rootHash }, [ed25519Signer(key.name, key.seed)]);
  return journalCheckpoint({ size, rootHash: toHex(rootHash), milestone: null, note }, (text) =>
    signSshsig({ seed: key.seed, namespace: 'db8-checkpoint', message: new TextEncoder().encode(text) }),
  );
}

/** A complete bundle, checkpoints at sizes 1, 4 and 8 (the head). */
export function bundle(
  opts: { viewer?: ViewerClass; key?: TestKey; entries?: StoredEntry[]; sizes?: number[] } = {},
): JournalRecord[] {
  const key = opts.key ?? KEY;
  const stored = opts.entries ?? roomEntries();
  const w = new JournalWriter({
    room: ROOM,
    protocol: 'auction',
    protocol_version: 2,
    origin: ORIGIN,
    title: null,
    exported_at: '2025-01-01T00:00:00.000Z',
    viewer_class: opts.viewer ?? 'public',
  });
  const out: JournalRecord[] = [w.start()];
  out.push(journalKey({ noteVkey: vkeyOf(key), sshPublicKey: sshLineOf(key), identity: 'server@db8.test' }));
  for (const e of stored) out.push(w.entry(e));
  const pubs = out.flatMap((r) => (r.type === 'entry' ? [r.entry] : []));
  for (const size of opts.sizes ?? [1, 4, 8]) out.push(w.checkpoint(checkpointFor(pubs, size, key)));
  out.push(w.end());
  return out;
}

/** Deep copy, so a test can tamper freely. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
