// Ed25519 and SSHSIG verification throughput. The goal for SSHSIG is to stay within 20% of a raw
// Ed25519 verify: parsing, hashing and (cached) certificate checks must be cheap next to the curve math.
import { ed25519 as noble } from '@noble/curves/ed25519.js';
import { ed25519, signCertificate, signSshsig, verifySshsig } from '../packages/core/src/index.ts';
import type { BenchRow } from './types.ts';

const AREA = 'crypto';

/**
 * Operations per second of each function, measured in alternating short slices so that load from
 * other processes on a shared machine falls on all of them alike and their ratios stay meaningful.
 */
function compare(fns: (() => unknown)[], totalMs = 1500, sliceMs = 30): number[] {
  for (const fn of fns) for (let i = 0; i < 100; i++) fn();
  const ops = fns.map(() => 0);
  const time = fns.map(() => 0);
  const end = performance.now() + totalMs * fns.length;
  while (performance.now() < end) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      let now = start;
      let n = 0;
      while (now - start < sliceMs) {
        for (let i = 0; i < 10; i++) fn();
        n += 10;
        now = performance.now();
      }
      ops[k]! += n;
      time[k]! += now - start;
    });
  }
  return ops.map((n, k) => (n * 1000) / time[k]!);
}

function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench setup: ${what} did not verify`);
}

export async function run(): Promise<BenchRow[]> {
  const message = new TextEncoder().encode('x'.repeat(256));
  const user = ed25519.keyPairFromSeed(new Uint8Array(32).fill(7));
  const ca = ed25519.keyPairFromSeed(new Uint8Array(32).fill(9));
  const sig = ed25519.sign(user.seed, message);
  must(ed25519.verify(user.publicKey, message, sig), 'raw signature');

  const plain = signSshsig({ seed: user.seed, namespace: 'db8', message });
  const plainTrust = { publicKeys: [user.publicKey] };
  must(verifySshsig({ armored: plain, message, namespace: 'db8', trust: plainTrust }).ok, 'plain SSHSIG');

  const at = Date.parse('2026-01-01T00:00:00Z');
  const { line } = signCertificate({
    caSeed: ca.seed,
    publicKey: user.publicKey,
    keyId: 'anon_1@room_bench',
    principals: ['anon_1@room_bench'],
    validAfter: at - 86_400_000,
    validBefore: at + 86_400_000,
  });
  const certSig = signSshsig({ seed: user.seed, namespace: 'db8', message, certificate: line });
  const caTrust = { caKeys: [ca.publicKey], principal: 'anon_1@room_bench', at };
  must(
    verifySshsig({ armored: certSig, message, namespace: 'db8', trust: caTrust }).ok,
    'certificate SSHSIG',
  );

  const [cached, uncached, nobleVerify, sshsigPlain, sshsigCert] = compare([
    () => ed25519.verify(user.publicKey, message, sig),
    () => ed25519.verifyUncached(user.publicKey, message, sig),
    () => noble.verify(sig, message, user.publicKey, { zip215: false }),
    () => verifySshsig({ armored: plain, message, namespace: 'db8', trust: plainTrust }),
    () => verifySshsig({ armored: certSig, message, namespace: 'db8', trust: caTrust }),
  ]) as [number, number, number, number, number];
  const [signRate] = compare([() => ed25519.sign(user.seed, message)], 500) as [number];

  const goal = 'within 20% of raw Ed25519 verify (cached)';
  const row = (name: string, value: number, extra: Partial<BenchRow> = {}): BenchRow => ({
    area: AREA,
    name,
    value,
    unit: 'ops/s',
    ...extra,
  });
  return [
    row('ed25519 verify, node:crypto, cached KeyObject', cached, {
      peer: '@noble/curves',
      peerValue: nobleVerify,
    }),
    row('ed25519 verify, node:crypto, KeyObject per call', uncached, {
      peer: 'cached KeyObject',
      peerValue: cached,
    }),
    row('ed25519 sign, node:crypto, cached KeyObject', signRate),
    row('SSHSIG verify, plain key, sha512, 256 B', sshsigPlain, {
      peer: 'raw ed25519 verify',
      peerValue: cached,
      goal,
    }),
    row('SSHSIG verify, user certificate + CA checks', sshsigCert, {
      peer: 'raw ed25519 verify',
      peerValue: cached,
      goal,
    }),
  ];
}
