import { describe, expect, it } from 'vitest';
import { builtinProtocols, createProtocolRegistry, protocolByName, sealedBid } from '../../src/index.ts';

describe('@db8/protocols registry', () => {
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
    expect(createProtocolRegistry().get('sealed-bid')).toBe(sealedBid);
    expect(() => createProtocolRegistry([sealedBid, { ...sealedBid }])).toThrow(
      /duplicate protocol name: sealed-bid/,
    );
  });
});
