import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { draftFor } from '../src/components/ActionForm.tsx';
import { formatRemaining, remainingMs } from '../src/components/Countdown.tsx';
import { searchCodec } from '../src/lib/router.tsx';

describe('draftFor', () => {
  it('turns min* hints into starting values and keeps the type', () => {
    expect(draftFor({ type: 'bid', minAmount: 100, current: 120 })).toEqual({ type: 'bid', amount: 100 });
    expect(draftFor({ type: 'pass' })).toEqual({ type: 'pass' });
    expect(draftFor('fold')).toBe('fold');
  });
});

describe('countdown', () => {
  it('follows the server clock through the skew', () => {
    // Local clock 1000 ms behind the server: 5 s to the deadline by the server is 4 s here.
    expect(remainingMs(10_000, 1000, 5000)).toBe(4000);
    expect(remainingMs(10_000, 0, 20_000)).toBe(0);
  });
  it('formats minutes and hours', () => {
    expect(formatRemaining(61_000)).toBe('01:01');
    expect(formatRemaining(500)).toBe('00:01');
    expect(formatRemaining(3_600_000 + 5000)).toBe('1:00:05');
  });
});

describe('searchCodec', () => {
  it('keeps the address plain: every value a string, no JSON quoting', () => {
    expect(searchCodec.parseSearch('?from=25&raw=1&inspect')).toEqual({ from: '25', raw: '1', inspect: '' });
    expect(searchCodec.stringifySearch({ from: '25', tag: 'a b', gone: undefined })).toBe('?from=25&tag=a+b');
    expect(searchCodec.stringifySearch({})).toBe('');
    // A flag is written bare, as the monitor's Inspect link has always addressed the inspector.
    expect(searchCodec.stringifySearch({ inspect: '', from: '3' })).toBe('?inspect&from=3');
    expect(searchCodec.parseSearch('?inspect&from=3')).toEqual({ inspect: '', from: '3' });
  });
});

describe('configFields', () => {
  it('reads field kinds, enums, bounds and defaults from an installed protocol config schema', async () => {
    const { configFields, protocolNamed, checkConfig } = await import('../src/lib/protocols.ts');
    const { installProtocols } = await import('../src/protocols/registry.ts');
    // The generated form is the fallback for a protocol with no form of its own: an auction's schema.
    const auction = {
      name: 'auction',
      configSchema: z.object({
        item: z.string().min(1),
        bidders: z.number().int().min(2).max(10),
        rule: z.enum(['first-price', 'second-price']),
        turnWindowMs: z.number().int().positive().default(30_000),
      }),
    } as unknown as Parameters<typeof configFields>[0];
    installProtocols([], [auction]);
    expect(protocolNamed('auction')).toBe(auction);
    expect(protocolNamed('no-such')).toBeUndefined();
    const preset = { item: 'A signed first edition', bidders: 2, rule: 'second-price' };
    const fields = configFields(auction)!;
    const by = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(by.item).toMatchObject({ kind: 'string', required: true });
    expect(by.bidders).toMatchObject({ kind: 'integer', min: 2, max: 10 });
    expect(by.rule).toMatchObject({ kind: 'enum', options: ['first-price', 'second-price'] });
    expect(by.turnWindowMs).toMatchObject({ required: false, default: 30_000 });
    expect(checkConfig(auction, preset)).toBeNull();
    expect(checkConfig(auction, { ...preset, bidders: 1 })).toMatch(/^bidders: /);
  });

  it('reads `T | null` as a nullable T', async () => {
    const { configFields } = await import('../src/lib/protocols.ts');
    const proto = {
      configSchema: z.object({ maxHands: z.number().int().min(1).max(1000).nullable().default(null) }),
    } as unknown as Parameters<typeof configFields>[0];
    expect(configFields(proto)).toEqual([
      {
        name: 'maxHands',
        kind: 'integer',
        required: false,
        nullable: true,
        min: 1,
        max: 1000,
        default: null,
      },
    ]);
  });
});
