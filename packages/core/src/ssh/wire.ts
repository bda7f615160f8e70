// SSH wire encoding (RFC 4251 §5): uint32, uint64, string, mpint. Every read is bounds-checked and fails
// with a typed SshWireError, because these bytes come from untrusted signatures and certificates.
import { utf8Encode } from '../crypto/bytes.ts';

export type SshWireErrorCode = 'TRUNCATED' | 'TRAILING_DATA' | 'BAD_UTF8' | 'BAD_MPINT' | 'OUT_OF_RANGE';

export class SshWireError extends Error {
  readonly code: SshWireErrorCode;
  constructor(code: SshWireErrorCode, message: string) {
    super(message);
    this.name = 'SshWireError';
    this.code = code;
  }
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const UINT64_MAX = (1n << 64n) - 1n;

/** Sequential reader over SSH wire data. Returned byte strings are views into the input (no copies). */
export class SshReader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (n > this.buf.length - this.pos) {
      throw new SshWireError(
        'TRUNCATED',
        `truncated ${what}: need ${n} bytes at offset ${this.pos}, have ${this.remaining}`,
      );
    }
  }

  readBytes(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  readUint8(what = 'byte'): number {
    this.need(1, what);
    return this.buf[this.pos++]!;
  }

  readUint32(what = 'uint32'): number {
    this.need(4, what);
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  }

  readUint64(what = 'uint64'): bigint {
    this.need(8, what);
    const hi = this.readUint32(what);
    const lo = this.readUint32(what);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  readString(what = 'string'): Uint8Array {
    const len = this.readUint32(`${what} length`);
    return this.readBytes(len, what);
  }

  /** A string that must be valid UTF-8 (names, namespaces, principals). */
  readText(what = 'text'): string {
    const raw = this.readString(what);
    // Names, namespaces and principals are nearly always ASCII: skip the decoder for them.
    if (raw.length <= 128) {
      let s = '';
      let i = 0;
      for (; i < raw.length && raw[i]! < 0x80; i++) s += String.fromCharCode(raw[i]!);
      if (i === raw.length) return s;
    }
    try {
      return utf8Strict.decode(raw);
    } catch {
      throw new SshWireError('BAD_UTF8', `${what} is not valid UTF-8`);
    }
  }

  /** Two's-complement big-endian integer; rejects non-minimal encodings like OpenSSH does. */
  readMpint(what = 'mpint'): bigint {
    const raw = this.readString(what);
    if (raw.length === 0) return 0n;
    const first = raw[0]!;
    if (
      raw.length > 1 &&
      ((first === 0 && (raw[1]! & 0x80) === 0) || (first === 0xff && (raw[1]! & 0x80) !== 0))
    ) {
      throw new SshWireError('BAD_MPINT', `${what} has a non-minimal encoding`);
    }
    let v = 0n;
    for (const b of raw) v = (v << 8n) | BigInt(b);
    if (first & 0x80) v -= 1n << BigInt(raw.length * 8);
    return v;
  }

  /** Throws unless every byte has been consumed (trailing bytes hide data from the signer). */
  end(what = 'data'): void {
    if (this.pos !== this.buf.length) {
      throw new SshWireError('TRAILING_DATA', `${this.remaining} trailing bytes after ${what}`);
    }
  }
}

/** Append-only writer; call bytes() once at the end. */
export class SshWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  private push(b: Uint8Array): this {
    this.chunks.push(b);
    this.size += b.length;
    return this;
  }

  raw(bytes: Uint8Array | string): this {
    return this.push(typeof bytes === 'string' ? utf8Encode(bytes) : bytes);
  }

  uint8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xff)
      throw new SshWireError('OUT_OF_RANGE', `byte out of range: ${v}`);
    return this.push(Uint8Array.of(v));
  }

  uint32(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      throw new SshWireError('OUT_OF_RANGE', `uint32 out of range: ${v}`);
    }
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v);
    return this.push(b);
  }

  uint64(v: bigint | number): this {
    const big = typeof v === 'bigint' ? v : Number.isSafeInteger(v) ? BigInt(v) : -1n;
    if (big < 0n || big > UINT64_MAX) throw new SshWireError('OUT_OF_RANGE', `uint64 out of range: ${v}`);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, big);
    return this.push(b);
  }

  string(v: Uint8Array | string): this {
    const b = typeof v === 'string' ? utf8Encode(v) : v;
    this.uint32(b.length);
    return this.push(b);
  }

  mpint(v: bigint): this {
    if (v === 0n) return this.uint32(0);
    const bytes: number[] = [];
    let x = v;
    // Emit little-endian bytes until the remaining value is pure sign extension of the last byte.
    for (;;) {
      const byte = Number(x & 0xffn);
      bytes.push(byte);
      x >>= 8n;
      if ((x === 0n && (byte & 0x80) === 0) || (x === -1n && (byte & 0x80) !== 0)) break;
    }
    return this.string(Uint8Array.from(bytes.reverse()));
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** Encode a list of strings as the concatenation of SSH strings (cert principals, option lists). */
export function encodeStringList(items: readonly (Uint8Array | string)[]): Uint8Array {
  const w = new SshWriter();
  for (const it of items) w.string(it);
  return w.bytes();
}

/** Decode a buffer that is a concatenation of SSH strings. */
export function decodeTextList(buf: Uint8Array, what: string): string[] {
  const r = new SshReader(buf);
  const out: string[] = [];
  while (r.remaining > 0) out.push(r.readText(what));
  return out;
}
