import { describe, expect, it } from 'vitest';
import { sealedBid } from '../../rules/index.ts';
import { baseConfig, Room } from './harness.ts';

const ADMIN = { kind: 'admin' } as const;
const OBSERVER = { kind: 'observer' } as const;

describe('sealed-bid: configuration and seats', () => {
  it('seats bidder_1..N (role bidder) plus the auctioneer', () => {
    const config = sealedBid.configSchema.parse({ ...baseConfig, bidders: 4 });
    expect(sealedBid.seats(config)).toEqual([
      { id: 'bidder_1', role: 'bidder' },
      { id: 'bidder_2', role: 'bidder' },
      { id: 'bidder_3', role: 'bidder' },
      { id: 'bidder_4', role: 'bidder' },
      { id: 'auctioneer', role: 'auctioneer' },
    ]);
  });

  it('accepts 2..10 bidders and refuses anything else', () => {
    for (const bidders of [2, 10])
      expect(sealedBid.configSchema.safeParse({ ...baseConfig, bidders }).success).toBe(true);
    for (const bidders of [1, 11, 2.5]) {
      expect(sealedBid.configSchema.safeParse({ ...baseConfig, bidders }).success).toBe(false);
    }
    expect(sealedBid.configSchema.safeParse({ ...baseConfig, rule: 'dutch' }).success).toBe(false);
    expect(sealedBid.configSchema.safeParse({ ...baseConfig, reservePrice: -1 }).success).toBe(false);
    expect(sealedBid.configSchema.safeParse({ ...baseConfig, extra: 1 }).success).toBe(false);
  });

  it('action schema refuses malformed actions before the protocol sees them', () => {
    const bad = [
      { type: 'bid', amount: 0 },
      { type: 'bid', amount: 1.5 },
      { type: 'bid', amount: 2 ** 60 },
      { type: 'bid', amount: 10, note: 'x' },
      { type: 'steal' },
      { type: 'pass', turnToken: '' },
    ];
    for (const a of bad) expect(sealedBid.actionSchema.safeParse(a).success, JSON.stringify(a)).toBe(false);
  });
});

describe('sealed-bid: a full first-price auction by hand', () => {
  it('seals bids, replaces a bid, reveals the latest bids at once, and sells at the winning bid', () => {
    const room = new Room(baseConfig, 1_000);
    expect(room.state.closesAt).toBe(61_000);

    const b1 = room.must('bidder_1', { type: 'bid', amount: 150 }, 2_000);
    expect(b1.visibility).toEqual({ kind: 'seat', seat: 'bidder_1' });
    room.must('bidder_2', { type: 'bid', amount: 200 }, 3_000); // seq 2
    room.must('bidder_1', { type: 'bid', amount: 250 }, 4_000); // seq 3 replaces seq 1
    expect(sealedBid.deadline(room.state)).toBe(61_000); // bidder_3 has not bid yet
    room.must('bidder_3', { type: 'bid', amount: 120 }, 5_000); // seq 4: everyone is in

    // Everyone has bid: bidding ends at the next tick, which is due now; no more bids.
    expect(sealedBid.deadline(room.state)).toBe(5_000);
    expect(sealedBid.legal(room.state, 'bidder_1').actions).toEqual([]);
    expect(sealedBid.tick(room.state, 4_999, room.nextSeq)).toBeNull(); // LocalRoom time never runs back

    const reveal = room.tick(5_000);
    expect(reveal?.reveal).toEqual([2, 3, 4]); // not seq 1: a replaced bid stays sealed
    expect(reveal?.visibility).toBeUndefined(); // the reveal itself is public
    expect(reveal?.milestone).toBe('bids-revealed');
    expect(room.state.phase).toBe('reveal');

    // No tie, so the auctioneer is to act; nobody else holds a token.
    expect(room.token('bidder_1')).toBeUndefined();
    const token = room.token('auctioneer');
    expect(token).toBeTypeOf('string');
    expect(room.view(OBSERVER).standing).toEqual({ seat: 'bidder_1', amount: 250, price: 250 });
    expect(sealedBid.deadline(room.state)).toBe(15_000);
    expect(sealedBid.isOver(room.state)).toBe(false);
    expect(sealedBid.result(room.state)).toBeNull();

    const closed = room.must('auctioneer', { type: 'confirm', turnToken: token }, 6_000);
    expect(closed.milestone).toBe('closed');
    expect(sealedBid.isOver(room.state)).toBe(true);
    expect(sealedBid.deadline(room.state)).toBeNull();
    expect(room.result()).toEqual({
      item: baseConfig.item,
      rule: 'first-price',
      sold: true,
      reason: 'sold',
      winner: 'bidder_1',
      price: 250,
      ranking: [
        { seat: 'bidder_1', amount: 250, seq: 3 },
        { seat: 'bidder_2', amount: 200, seq: 2 },
        { seat: 'bidder_3', amount: 120, seq: 4 },
      ],
      closedBy: 'auctioneer',
      closedAt: 6_000,
    });
    expect(room.log.map((e) => [e.seq, e.kind, e.actor])).toEqual([
      [1, 'action', 'bidder_1'],
      [2, 'action', 'bidder_2'],
      [3, 'action', 'bidder_1'],
      [4, 'action', 'bidder_3'],
      [5, 'tick', 'system'],
      [6, 'action', 'auctioneer'],
    ]);
  });
});

describe('sealed-bid: second price (Vickrey)', () => {
  const vickrey = { ...baseConfig, rule: 'second-price' } as const;

  it('the winner pays the runner-up bid', () => {
    const room = new Room(vickrey, 0);
    room.must('bidder_1', { type: 'bid', amount: 300 }, 1);
    room.must('bidder_2', { type: 'bid', amount: 180 }, 2);
    room.must('bidder_3', { type: 'bid', amount: 240 }, 3);
    room.tick(3);
    room.must('auctioneer', { type: 'confirm' }, 4);
    expect(room.result()).toMatchObject({ sold: true, winner: 'bidder_1', price: 240 });
  });

  it('a lone bidder pays the reserve; silence from the auctioneer confirms at the reveal deadline', () => {
    const room = new Room(vickrey, 0);
    room.must('bidder_2', { type: 'bid', amount: 500 }, 10);
    expect(room.tick(59_999)).toBeNull();
    expect(room.tick(60_000)?.reveal).toEqual([1]);
    expect(room.tick(69_999)).toBeNull();
    const t = room.tick(70_000);
    expect(t?.milestone).toBe('closed');
    expect(room.result()).toMatchObject({ sold: true, winner: 'bidder_2', price: 100, closedBy: 'timeout' });
  });
});

describe('sealed-bid: ties, turns and the auctioneer', () => {
  // bidder_2 bids first, so it holds the earlier seq; bidder_1 still gets the first turn (seat order).
  function tiedRoom(rule: 'first-price' | 'second-price') {
    const room = new Room({ ...baseConfig, rule }, 0);
    room.must('bidder_2', { type: 'bid', amount: 200 }, 1); // seq 1
    room.must('bidder_1', { type: 'bid', amount: 200 }, 2); // seq 2
    room.must('bidder_3', { type: 'bid', amount: 150 }, 3); // seq 3
    room.tick(3);
    return room;
  }

  it('a tie at the top gives the tied bidders one turn each, in seat order', () => {
    const room = tiedRoom('first-price');
    expect(room.state.turn).toEqual({
      kind: 'tiebreak',
      seat: 'bidder_1',
      deadline: 5_003,
      next: ['bidder_2'],
    });
    expect(sealedBid.legal(room.state, 'bidder_1').actions).toEqual([
      { type: 'raise', minAmount: 201 },
      { type: 'pass' },
    ]);
    expect(sealedBid.legal(room.state, 'bidder_2')).toEqual({ actions: [] });
    expect(sealedBid.legal(room.state, 'bidder_3')).toEqual({ actions: [] });
    // Before anyone raises the earlier bid leads.
    expect(room.view(OBSERVER).standing).toEqual({ seat: 'bidder_2', amount: 200, price: 200 });
  });

  it('all pass: the earliest bid wins the tie', () => {
    const room = tiedRoom('first-price');
    room.must('bidder_1', { type: 'pass', turnToken: room.token('bidder_1') }, 10);
    room.must('bidder_2', { type: 'pass', turnToken: room.token('bidder_2') }, 20);
    expect(room.state.turn).toEqual({ kind: 'confirm', seat: 'auctioneer', deadline: 10_020 });
    room.must('auctioneer', { type: 'confirm', turnToken: room.token('auctioneer') }, 30);
    expect(room.result()).toMatchObject({ winner: 'bidder_2', price: 200 });
  });

  it('a raise takes the lead; the price follows the rule', () => {
    for (const [rule, price] of [
      ['first-price', 230],
      ['second-price', 200],
    ] as const) {
      const room = tiedRoom(rule);
      const raised = room.must('bidder_1', { type: 'raise', amount: 230 }, 10);
      expect(raised.visibility).toBeUndefined(); // raises are public
      expect(sealedBid.legal(room.state, 'bidder_2').actions).toEqual([
        { type: 'raise', minAmount: 231 },
        { type: 'pass' },
      ]);
      room.must('bidder_2', { type: 'pass' }, 20);
      room.must('auctioneer', { type: 'confirm' }, 30);
      expect(room.result(), rule).toMatchObject({ winner: 'bidder_1', price });
      expect(room.result()?.ranking[0]).toEqual({ seat: 'bidder_1', amount: 230, seq: 2 });
    }
  });

  it('a silent tied bidder passes when the turn times out', () => {
    const room = tiedRoom('second-price');
    expect(sealedBid.deadline(room.state)).toBe(5_003);
    expect(room.tick(5_002)).toBeNull();
    room.tick(5_003); // bidder_1 timed out
    expect(room.state.turn).toMatchObject({ kind: 'tiebreak', seat: 'bidder_2', deadline: 10_003 });
    room.must('bidder_2', { type: 'raise', amount: 260 }, 6_000);
    expect(room.state.turn).toMatchObject({ kind: 'confirm', deadline: 16_000 });
    room.tick(16_000);
    expect(room.result()).toMatchObject({ winner: 'bidder_2', price: 200, closedBy: 'timeout' });
  });

  it('the auctioneer may withdraw the item: closed, unsold, ranking kept for the record', () => {
    const room = new Room(baseConfig, 0);
    room.must('bidder_1', { type: 'bid', amount: 150 }, 1);
    room.tick(60_000);
    room.must('auctioneer', { type: 'withdraw', turnToken: room.token('auctioneer') }, 60_001);
    expect(room.result()).toMatchObject({ sold: false, reason: 'withdrawn', winner: null, price: null });
    expect(room.result()?.ranking).toHaveLength(1);
  });

  it('no bids: the deadline closes the auction unsold with nothing to reveal', () => {
    const room = new Room(baseConfig, 0);
    const t = room.tick(60_000);
    expect(t?.reveal).toBeUndefined();
    expect(t?.milestone).toBe('closed');
    expect(room.result()).toMatchObject({ sold: false, reason: 'no-bids', closedBy: 'no-bids', ranking: [] });
    expect(room.tick(1e9)).toBeNull();
  });
});

describe('sealed-bid: sealing, views and the deadline', () => {
  function sealedRoom() {
    const room = new Room(baseConfig, 0);
    room.must('bidder_1', { type: 'bid', amount: 111 }, 1);
    room.must('bidder_2', { type: 'bid', amount: 222 }, 2);
    return room;
  }

  it('before the reveal only the bidder (and admins) see an amount; everyone sees who has bid', () => {
    const room = sealedRoom();
    const mine = room.seat('bidder_1').bidders;
    expect(mine[0]).toEqual({ seat: 'bidder_1', hasBid: true, bids: 1, amount: 111, seq: 1 });
    expect(mine[1]).toEqual({ seat: 'bidder_2', hasBid: true, bids: 1 });
    expect(mine[2]).toEqual({ seat: 'bidder_3', hasBid: false, bids: 0 });
    for (const viewer of [OBSERVER, { kind: 'seat', seat: 'auctioneer' } as const]) {
      const rows = room.view(viewer).bidders;
      expect(rows.map((r) => r.hasBid)).toEqual([true, true, false]);
      expect(rows.some((r) => 'amount' in r)).toBe(false);
      expect(room.view(viewer).standing).toBeNull();
    }
    expect(room.view(ADMIN).bidders.map((r) => r.amount)).toEqual([111, 222, undefined]);
    expect(room.seat('bidder_3').you).toEqual({ kind: 'bidder', seat: 'bidder_3' });
    expect(room.seat('stranger').you).toEqual({ kind: 'observer' });
    expect(room.view(OBSERVER).deadline).toBe(60_000);
  });

  it('the deadline flips bidding to reveal via tick; a bid after the deadline is refused even before the tick', () => {
    const room = sealedRoom();
    expect(sealedBid.deadline(room.state)).toBe(60_000);
    expect(room.tick(59_999)).toBeNull();
    const late = room.act('bidder_3', { type: 'bid', amount: 500 }, 60_000);
    expect(late.ok ? null : late.error.code).toBe('PHASE_CLOSED');
    const t = room.tick(60_000);
    expect(t?.reveal).toEqual([1, 2]);
    expect(room.state.phase).toBe('reveal');
    // After the reveal every viewer sees every amount.
    expect(room.view(OBSERVER).bidders.map((r) => r.amount)).toEqual([111, 222, undefined]);
    expect(room.view(OBSERVER).revealed).toEqual([1, 2]);
  });

  it('a turn token goes stale after any transition', () => {
    const room = new Room(baseConfig, 0);
    room.must('bidder_1', { type: 'bid', amount: 200 }, 1);
    room.must('bidder_2', { type: 'bid', amount: 200 }, 2);
    room.must('bidder_3', { type: 'bid', amount: 200 }, 3);
    room.tick(3);
    const first = room.token('bidder_1');
    room.must('bidder_1', { type: 'pass', turnToken: first }, 4);
    const second = room.token('bidder_2');
    expect(second).toBeTypeOf('string');
    expect(second).not.toBe(first);
  });
});
