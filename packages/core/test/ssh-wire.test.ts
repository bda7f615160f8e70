import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTextList, encodeStringList, SshReader, SshWireError, SshWriter } from '../src/index.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));

function wireError(fn: () => unknown): SshWireError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SshWireError) return e;
    throw e;
  }
  throw new Error('expected an SshWireError');
}

describe('SSH wire encoding', () => {
  // RFC 4251 §5 mpint examples.
  const MPINT = [
    [0n, '00000000'],
    [0x9a378f9b2e332a7n, '0000000809a378f9b2e332a7'],
    [0x80n, '000000020080'],
    [-0x1234n, '00000002edcc'],
    [-0xdeadbeefn, '00000005ff21524111'],
  ] as const;

  it.each(MPINT)('encodes and decodes mpint %s as in RFC 4251', (v, h) => {
    expect(hex(new SshWriter().mpint(v).bytes())).toBe(h);
    expect(new SshReader(fromHex(h)).readMpint()).toBe(v);
  });

  it('rejects non-minimal mpints', () => {
    expect(wireError(() => new SshReader(fromHex('00000002 0001')).readMpint()).code).toBe('BAD_MPINT');
    expect(wireError(() => new SshReader(fromHex('00000002 ff80')).readMpint()).code).toBe('BAD_MPINT');
  });

  it('writes uint32, uint64 and strings big-endian with length prefixes', () => {
    const b = new SshWriter().uint32(0x01020304).uint64(0x0102030405060708n).string('ab').bytes();
    expect(hex(b)).toBe('01020304' + '0102030405060708' + '00000002' + '6162');
    const r = new SshReader(b);
    expect(r.readUint32()).toBe(0x01020304);
    expect(r.readUint64()).toBe(0x0102030405060708n);
    expect(r.readText()).toBe('ab');
    r.end();
  });

  it('fails with typed errors on truncation, trailing data, bad UTF-8 and out-of-range values', () => {
    expect(wireError(() => new SshReader(fromHex('000000')).readUint32()).code).toBe('TRUNCATED');
    expect(wireError(() => new SshReader(fromHex('00000005 6162')).readString()).code).toBe('TRUNCATED');
    expect(wireError(() => new SshReader(fromHex('ffffffff')).readString()).code).toBe('TRUNCATED');
    expect(wireError(() => new SshReader(fromHex('00000000 00')).readUint64()).code).toBe('TRUNCATED');
    const r = new SshReader(fromHex('00000001 61 ff'));
    r.readText();
    expect(wireError(() => r.end()).code).toBe('TRAILING_DATA');
    expect(wireError(() => new SshReader(fromHex('00000001 ff')).readText()).code).toBe('BAD_UTF8');
    expect(wireError(() => new SshWriter().uint32(2 ** 32)).code).toBe('OUT_OF_RANGE');
    expect(wireError(() => new SshWriter().uint32(-1)).code).toBe('OUT_OF_RANGE');
    expect(wireError(() => new SshWriter().uint64(-1n)).code).toBe('OUT_OF_RANGE');
    expect(wireError(() => new SshWriter().uint64(1n << 64n)).code).toBe('OUT_OF_RANGE');
    expect(wireError(() => new SshWriter().uint64(2 ** 60)).code).toBe('OUT_OF_RANGE'); // not a safe integer
  });

  it('round-trips arbitrary values (property)', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 0xffffffff }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }),
        fc.uint8Array({ maxLength: 64 }),
        fc.array(fc.string()),
        (u32, u64, mp, bytes, texts) => {
          const b = new SshWriter()
            .uint32(u32)
            .uint64(u64)
            .mpint(mp)
            .string(bytes)
            .string(encodeStringList(texts))
            .bytes();
          const r = new SshReader(b);
          expect(r.readUint32()).toBe(u32);
          expect(r.readUint64()).toBe(u64);
          expect(r.readMpint()).toBe(mp);
          expect(r.readString()).toEqual(bytes);
          expect(decodeTextList(r.readString(), 'item')).toEqual(texts);
          r.end();
        },
      ),
    );
  });

  it('never throws anything but SshWireError on random input (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        try {
          const r = new SshReader(bytes);
          r.readText();
          r.readMpint();
          r.readUint64();
        } catch (e) {
          expect(e).toBeInstanceOf(SshWireError);
        }
      }),
    );
  });
});
