// Browser-oriented Ed25519 through WebCrypto (crypto.subtle): the private key can be generated
// non-extractable so page scripts can sign with it but never read it. Works in Node 20 too.
// Signatures are plain Ed25519, interchangeable with ed25519.ts sign/verify.

const ALG = { name: 'Ed25519' } as const;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return s;
}

// Copy into a fresh ArrayBuffer-backed array: SubtleCrypto rejects views over SharedArrayBuffer.
const own = (b: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(b);

export type WebCryptoEd25519KeyPair = {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicKeyRaw: Uint8Array;
};

/** A new key pair whose private half is non-extractable (unless `extractable` is set, e.g. for backup). */
export async function webcryptoGenerateEd25519(extractable = false): Promise<WebCryptoEd25519KeyPair> {
  const pair = (await subtle().generateKey(ALG, extractable, ['sign', 'verify'])) as CryptoKeyPair;
  return {
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    publicKeyRaw: await webcryptoExportEd25519(pair.publicKey),
  };
}

/** Raw 32-byte public key (public keys are always exportable). */
export async function webcryptoExportEd25519(publicKey: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await subtle().exportKey('raw', publicKey));
}

export async function webcryptoSignEd25519(privateKey: CryptoKey, message: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign(ALG, privateKey, own(message)));
}

/** False for any malformed key or signature, like ed25519.verify. */
export async function webcryptoVerifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await subtle().importKey('raw', own(publicKey), ALG, false, ['verify']);
    return await subtle().verify(ALG, key, own(signature), own(message));
  } catch {
    return false;
  }
}
