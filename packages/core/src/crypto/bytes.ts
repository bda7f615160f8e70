import { isWellFormed } from '../json/wellformed.ts';

/**
 * Byte helpers that behave the same in Node and browsers (no Buffer). Decoders are strict: they throw
 * TypeError on anything that is not the canonical encoding, so one byte string has one text form.
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function decodeTable(alphabet: string): Int16Array {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const B64_DEC = decodeTable(B64);
const B64URL_DEC = decodeTable(B64URL);

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

/** Hex (either case) to bytes; throws TypeError on odd length or a non-hex character. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0) throw new TypeError(`fromHex: odd length ${hex.length}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigit(hex.charCodeAt(2 * i));
    const lo = hexDigit(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new TypeError(`fromHex: invalid hex at offset ${hi < 0 ? 2 * i : 2 * i + 1}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

function encode64(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[v >> 18]! + alphabet[(v >> 12) & 63]! + alphabet[(v >> 6) & 63]! + alphabet[v & 63]!;
  }
  const rest = n - i;
  if (rest === 1) {
    const v = bytes[i]! << 16;
    out += alphabet[v >> 18]! + alphabet[(v >> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[v >> 18]! + alphabet[(v >> 12) & 63]! + alphabet[(v >> 6) & 63]! + (pad ? '=' : '');
  }
  return out;
}

function decode64(text: string, table: Int16Array, padded: boolean, name: string): Uint8Array<ArrayBuffer> {
  let len = text.length;
  if (padded) {
    if (len % 4 !== 0) throw new TypeError(`${name}: length ${len} is not a multiple of 4`);
    if (len > 0 && text.charCodeAt(len - 1) === 0x3d) len--;
    if (len > 0 && len % 4 === 3 && text.charCodeAt(len - 1) === 0x3d) len--;
  } else if (len % 4 === 1) {
    throw new TypeError(`${name}: impossible length ${len}`);
  }
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) throw new TypeError(`${name}: invalid character at offset ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, or two texts would decode to the same bytes.
  if ((acc & ((1 << bits) - 1)) !== 0) throw new TypeError(`${name}: non-zero padding bits`);
  return out;
}

/** Standard base64 with padding (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  return encode64(bytes, B64, true);
}

/** Standard base64; padding required, no whitespace, canonical trailing bits. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return decode64(text, B64_DEC, true, 'fromBase64');
}

/** URL-safe base64 without padding (RFC 4648 §5, as JOSE uses it). */
export function toBase64Url(bytes: Uint8Array): string {
  return encode64(bytes, B64URL, false);
}

/** URL-safe base64; padding not allowed, canonical trailing bits. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return decode64(text, B64URL_DEC, false, 'fromBase64Url');
}

/** UTF-8 bytes of `text`; throws TypeError on a lone surrogate instead of writing U+FFFD. */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  if (!isWellFormed(text)) throw new TypeError('utf8Encode: string contains a lone surrogate');
  return encoder.encode(text);
}

/** Text of UTF-8 `bytes`; throws TypeError on invalid UTF-8. A leading BOM is kept, not stripped. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new TypeError('utf8Decode: invalid UTF-8');
  }
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Equality; when lengths match, the time does not depend on where the bytes differ (for MACs, tokens). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
