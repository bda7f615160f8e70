// did:key for Ed25519 (W3C did:key method): "did:key:z" + base58btc(0xed 0x01 ‖ 32-byte key).
// Orbiplex participant and nym ids embed one (`participant:did:key:z6Mk…`, `nym:did:key:z6Mk…`),
// so the id alone names the key that must have signed.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));
const ED25519_PUB = [0xed, 0x01];

export function base58Encode(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] as number) << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i] as number];
  return out;
}

/** Bytes of a base58btc string, or null if it holds a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | null {
  const bytes: number[] = [];
  for (const ch of text) {
    const v = INDEX[ch];
    if (v === undefined) return null;
    let carry = v;
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] as number) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const ch of text) {
    if (ch !== '1') break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** `did:key:z…` for a 32-byte Ed25519 public key. */
export function didKeyFromPublicKey(publicKey: Uint8Array): string {
  return `did:key:z${base58Encode(Uint8Array.from([...ED25519_PUB, ...publicKey]))}`;
}

/**
 * The Ed25519 public key inside an id that ends in `did:key:z…` (with any prefix such as
 * `participant:` or `nym:`), or null when there is none or it is not an Ed25519 key.
 */
export function publicKeyFromDidKey(id: string): Uint8Array | null {
  const at = id.lastIndexOf('did:key:z');
  if (at < 0) return null;
  const raw = base58Decode(id.slice(at + 'did:key:z'.length));
  if (raw?.length !== 34 || raw[0] !== ED25519_PUB[0] || raw[1] !== ED25519_PUB[1]) return null;
  return raw.slice(2);
}
