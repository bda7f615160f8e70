import { installProtocols } from '@db8/web';
import { driversBody, seatsOf } from '@db8/web/src/components/create/Drivers.tsx';
import { describe, expect, it } from 'vitest';
import { builtinProtocols } from '../../src/protocols.ts';
import { webModules as modules } from '../../web/modules.ts';

installProtocols(modules, builtinProtocols);

// The create form's seat drivers: seats follow the protocol's own seats(config), reserved seats
// (the server's own) are not offered, and only scripted or model choices become `drivers`.

describe('create form drivers', () => {
  it('offers the seats a config gives, without reserved ones, and none for a config that does not parse', () => {
    const table = seatsOf('poker', { seats: 3, smallBlind: 5, bigBlind: 10, startingStack: 1000 });
    expect(table?.map((s) => s.id)).toEqual(['seat_0', 'seat_1', 'seat_2']);
    expect(seatsOf('poker', { seats: 3 })).toBeNull();
    const debate = seatsOf('debate', { topic: 't', debaters: 2, judges: 1, viewers: 0 });
    expect(debate?.map((s) => s.id)).toEqual(
      expect.arrayContaining(['anon_1', 'anon_2', 'fact_checker', 'judge_1']),
    );
    expect(debate?.some((s) => s.id.startsWith('viewer'))).toBe(false);
  });

  it('sends scripted and model seats only, for seats that exist', () => {
    const seats = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(
      driversBody(
        {
          a: { kind: 'scripted' },
          b: { kind: 'open' },
          c: { kind: 'model', provider: ' openai ', model: '' },
          gone: { kind: 'scripted' },
        },
        seats,
      ),
    ).toEqual({ a: { driver: 'model', provider: 'scripted' }, c: { driver: 'model', provider: 'openai' } });
    expect(driversBody({ a: { kind: 'open' } }, seats)).toBeUndefined();
  });

  it('gives these modules their own create form (others get the generated one)', () => {
    // A component: a function, or the lazy wrapper that loads it with its page.
    for (const name of ['debate', 'poker', 'council', 'sealed-bid'])
      expect(modules.find((m) => m.protocol === name)?.CreateForm, name).toBeTruthy();
  });
});

describe('lobby seat counts', () => {
  it("leave out the protocol's reserved seats, as the protocol's own listings do", async () => {
    const { openableSeats } = await import('@db8/web/src/lib/protocols.ts');
    const seats = [
      { seat: 'seat_0', role: 'player', taken: true },
      { seat: 'seat_1', role: 'player', taken: false },
      { seat: 'house', role: 'house', taken: true },
    ];
    expect(openableSeats('poker', seats).map((s) => s.seat)).toEqual(['seat_0', 'seat_1']);
    expect(openableSeats('sealed-bid', seats)).toHaveLength(3);
  });
});
