import { createCastRegistry, createProtocolRegistry } from '@db8/core';
import { sealedBid, sealedBidCast } from '@db8/sealed-bid';
import { describe, expect, it } from 'vitest';
import { builtinCasts, builtinProtocols, protocolByName } from '../src/protocols.ts';

describe('the built-in protocols registry', () => {
  it('lists sealed-bid among the builtins and finds it by name', () => {
    expect(builtinProtocols).toContain(sealedBid);
    expect(protocolByName('sealed-bid')).toBe(sealedBid);
    expect(protocolByName('no-such-protocol')).toBeUndefined();
  });

  it('builtin names are unique and every builtin has the whole contract', () => {
    const names = builtinProtocols.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const p of builtinProtocols) {
      expect(p.version).toBeGreaterThanOrEqual(1);
      for (const fn of [
        'seats',
        'setup',
        'apply',
        'tick',
        'deadline',
        'view',
        'legal',
        'result',
        'isOver',
      ] as const) {
        expect(typeof p[fn], `${p.name}.${fn}`).toBe('function');
      }
    }
  });

  it('a registry refuses two protocols with one name', () => {
    expect(createProtocolRegistry(builtinProtocols).get('sealed-bid')).toBe(sealedBid);
    expect(() => createProtocolRegistry([sealedBid, { ...sealedBid }])).toThrow(
      /duplicate protocol name: sealed-bid/,
    );
  });

  it('every builtin protocol has a scripted cast for the privacy kit, and one only', () => {
    const casts = createCastRegistry(builtinCasts);
    expect(builtinProtocols.map((p) => p.name).filter((n) => !casts.has(n))).toEqual([]);
    expect(builtinCasts.map((c) => c.protocol).filter((n) => !protocolByName(n))).toEqual([]);
    expect(() => createCastRegistry([sealedBidCast, { ...sealedBidCast }])).toThrow(
      /duplicate cast for protocol sealed-bid/,
    );
  });
});
