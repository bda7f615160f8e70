// Journal bundles: offline verification of a 20k-entry room (every leaf, the tree, a checkpoint note
// + SSHSIG every 64 entries, sealed payloads and reveals), from JSONL text. No peer: nothing else
// reads this format. Figures are CPU time of this process (the machine is shared).
import {
  canonicalize,
  commitmentOf,
  ed25519Signer,
  entryLeafHash,
  formatSshPublicKey,
  JournalWriter,
  journalCheckpoint,
  journalKey,
  MerkleLog,
  type PublicEntry,
  roomOrigin,
  type StoredEntry,
  signCheckpoint,
  signSshsig,
  toHex,
  utf8Encode,
  verifyBundleText,
} from '@db8/core';
import type { BenchRow } from './types.ts';

const AREA = 'journal';
const N = 20_000;
const EVERY = 64;
const ROOM = 'room_bench';
const SEED = new Uint8Array(32).fill(5);

function cpuMs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/** A room whose every fourth entry is a sealed bid, revealed by the next public entry. */
function buildBundle(): string {
  const signer = ed25519Signer('db8.bench', SEED);
  const origin = roomOrigin('db8.bench', ROOM);
  const w = new JournalWriter({
    room: ROOM,
    protocol: 'bench',
    protocol_version: 1,
    origin,
    title: null,
    exported_at: '2026-01-01T00:00:00.000Z',
    viewer_class: 'admin',
  });
  const lines: unknown[] = [w.start()];
  lines.push(
    journalKey({
      noteVkey: signer.verifier.vkey,
      sshPublicKey: formatSshPublicKey(signer.verifier.publicKey),
      identity: 'server@db8.bench',
    }),
  );
  const pubs: PublicEntry[] = [];
  let pending: StoredEntry | null = null;
  for (let seq = 0; seq < N; seq++) {
    const base = { v: 1 as const, room: ROOM, seq, ts: 1_000 + seq, actor: 'p1' };
    let e: StoredEntry;
    if (seq === 0) {
      e = {
        ...base,
        kind: 'genesis',
        actor: 'system',
        vis: { kind: 'public' },
        payload: { protocol: 'bench', version: 1 },
      };
    } else if (seq % 4 === 1) {
      const sealed = {
        payload: { type: 'bid', amount: seq },
        salt: toHex(new Uint8Array(32).fill(seq % 251)),
      };
      e = {
        ...base,
        kind: 'action',
        vis: { kind: 'seat', seat: 'p1' },
        commit: commitmentOf(sealed),
        sealed,
      };
      pending = e;
    } else {
      e = {
        ...base,
        kind: 'action',
        vis: { kind: 'public' },
        payload: { type: 'note', text: `entry ${seq}` },
      };
      if (pending?.sealed) {
        e.reveals = [{ seq: pending.seq, ...pending.sealed }];
        pending = null;
      }
    }
    const rec = w.entry(e);
    lines.push(rec);
    pubs.push(rec.entry);
  }
  const tree = MerkleLog.fromLeafHashes(pubs.map((p) => entryLeafHash(p)));
  for (let size = EVERY; ; size = Math.min(size + EVERY, N)) {
    const note = signCheckpoint({ origin, size, rootHash: tree.root(size) }, [signer]);
    const rec = journalCheckpoint({ size, rootHash: toHex(tree.root(size)), note }, (text) =>
      signSshsig({ seed: SEED, namespace: 'db8-checkpoint', message: utf8Encode(text) }),
    );
    lines.push(w.checkpoint(rec));
    if (size === N) break;
  }
  lines.push(w.end());
  return lines.map((l) => `${canonicalize(l)}\n`).join('');
}

export async function run(): Promise<BenchRow[]> {
  const text = buildBundle();
  const checkpoints = Math.ceil(N / EVERY);
  verifyBundleText(text); // warm up
  let result: ReturnType<typeof verifyBundleText> | undefined;
  const ms = cpuMs(() => {
    result = verifyBundleText(text, { pinnedKey: ed25519Signer('db8.bench', SEED).verifier.vkey });
  });
  if (!result?.ok) throw new Error(`bench bundle does not verify: ${JSON.stringify(result?.firstFailure)}`);
  return [
    { area: AREA, name: `verify ${N} entries + ${checkpoints} checkpoints (JSONL)`, value: ms, unit: 'ms' },
    { area: AREA, name: 'verify throughput', value: (N / ms) * 1000, unit: 'entries/s' },
    { area: AREA, name: 'bundle size per entry', value: text.length / N, unit: 'bytes' },
  ];
}
