import { canonicalize } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { REJECTION_CODES, sealedBid } from '../../rules/index.ts';
import { baseConfig, Room } from './harness.ts';

/**
 * Every typed rejection, each from a room in the state that provokes it. A rejection must leave
 * the room exactly as it was: same state object (the harness deep-freezes states, so a mutation
 * would have thrown), same canonical JSON, no seq consumed.
 */

function biddingRoom() {
  const room = new Room(baseConfig, 0);
  room.must('bidder_1', { type: 'bid', amount: 150 }, 1);
  return room;
}

/** bidder_1 and bidder_2 tied at 200; bidder_1 to act. */
function tiebreakRoom() {
  const room = new Room(baseConfig, 0);
  room.must('bidder_1', { type: 'bid', amount: 200 }, 1);
  room.must('bidder_2', { type: 'bid', amount: 200 }, 2);
  room.must('bidder_3', { type: 'bid', amount: 100 }, 3);
  room.tick(3);
  return room;
}

function confirmRoom() {
  const room = biddingRoom();
  room.tick(60_000);
  return room;
}

function closedRoom() {
  const room = confirmRoom();
  room.must('auctioneer', { type: 'confirm' }, 60_001);
  return room;
}

function staleTokenRoom() {
  const room = tiebreakRoom();
  const stale = room.token('bidder_1');
  room.must('bidder_1', { type: 'pass' }, 4);
  return { room, stale };
}

type Case = [name: string, make: () => Room, seat: string, action: unknown, now: number, code: string];

const cases: Case[] = [
  ['unknown seat', biddingRoom, 'mallory', { type: 'bid', amount: 150 }, 2, 'UNKNOWN_SEAT'],
  ['the auctioneer bids', biddingRoom, 'auctioneer', { type: 'bid', amount: 150 }, 2, 'NOT_A_BIDDER'],
  ['bid below reserve', biddingRoom, 'bidder_2', { type: 'bid', amount: 99 }, 2, 'BELOW_RESERVE'],
  [
    'bid at the deadline, before the tick',
    biddingRoom,
    'bidder_2',
    { type: 'bid', amount: 150 },
    60_000,
    'PHASE_CLOSED',
  ],
  [
    'bid after everyone has bid',
    tiebreakRoomBeforeTick,
    'bidder_1',
    { type: 'bid', amount: 300 },
    4,
    'PHASE_CLOSED',
  ],
  ['bid after the reveal', confirmRoom, 'bidder_2', { type: 'bid', amount: 150 }, 60_001, 'PHASE_CLOSED'],
  ['anything once closed', closedRoom, 'auctioneer', { type: 'confirm' }, 60_002, 'PHASE_CLOSED'],
  ['confirm during bidding', biddingRoom, 'auctioneer', { type: 'confirm' }, 2, 'WRONG_PHASE'],
  ['pass during bidding', biddingRoom, 'bidder_1', { type: 'pass' }, 2, 'WRONG_PHASE'],
  [
    'raise on the confirm turn',
    confirmRoom,
    'bidder_1',
    { type: 'raise', amount: 999 },
    60_001,
    'WRONG_PHASE',
  ],
  ['confirm on a tie-break turn', tiebreakRoom, 'auctioneer', { type: 'confirm' }, 4, 'WRONG_PHASE'],
  [
    'a bidder who is not tied raises',
    tiebreakRoom,
    'bidder_3',
    { type: 'raise', amount: 999 },
    4,
    'NOT_YOUR_TURN',
  ],
  ['the second tied bidder moves first', tiebreakRoom, 'bidder_2', { type: 'pass' }, 4, 'NOT_YOUR_TURN'],
  ['a bidder confirms', confirmRoom, 'bidder_1', { type: 'confirm' }, 60_001, 'NOT_YOUR_TURN'],
  ['a made-up token', tiebreakRoom, 'bidder_1', { type: 'pass', turnToken: 'sb:nope' }, 4, 'BAD_TURN_TOKEN'],
  ['a turn taken too late', tiebreakRoom, 'bidder_1', { type: 'pass' }, 5_003, 'TURN_EXPIRED'],
  [
    'a raise that does not beat the top',
    tiebreakRoom,
    'bidder_1',
    { type: 'raise', amount: 200 },
    4,
    'RAISE_TOO_LOW',
  ],
];

function tiebreakRoomBeforeTick() {
  const room = new Room(baseConfig, 0);
  room.must('bidder_1', { type: 'bid', amount: 200 }, 1);
  room.must('bidder_2', { type: 'bid', amount: 200 }, 2);
  room.must('bidder_3', { type: 'bid', amount: 100 }, 3);
  return room;
}

describe('sealed-bid: typed rejections leave the room unchanged', () => {
  it.each(cases)('%s → %s', (_name, make, seat, action, now, code) => {
    const room = make();
    const before = room.state;
    const beforeJson = canonicalize(before);
    const seq = room.nextSeq;
    const res = room.act(seat, action, now);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe(code);
    expect(REJECTION_CODES).toContain(res.error.code);
    expect(res.error.message.length).toBeGreaterThan(0);
    expect(room.state).toBe(before);
    expect(canonicalize(room.state)).toBe(beforeJson);
    expect(room.nextSeq).toBe(seq);
  });

  it('covers every rejection code', () => {
    const covered = new Set(cases.map((c) => c[5]));
    expect([...covered].sort()).toEqual([...REJECTION_CODES].sort());
  });

  it('a stale token (from before the last transition) is refused for the new turn', () => {
    const { room, stale } = staleTokenRoom();
    const res = room.act('bidder_2', { type: 'pass', turnToken: stale }, 5);
    expect(res.ok ? null : res.error.code).toBe('BAD_TURN_TOKEN');
    expect(room.act('bidder_2', { type: 'pass', turnToken: room.token('bidder_2') }, 5).ok).toBe(true);
  });

  it('a rejection carries details a client can act on', () => {
    const low = biddingRoom().act('bidder_2', { type: 'bid', amount: 5 }, 2);
    expect(low.ok ? null : low.error.details).toEqual({ reservePrice: 100 });
    const raise = tiebreakRoom().act('bidder_1', { type: 'raise', amount: 150 }, 4);
    expect(raise.ok ? null : raise.error.details).toEqual({ minAmount: 201 });
    expect(sealedBid.legal(tiebreakRoom().state, 'bidder_1').actions[0]).toEqual({
      type: 'raise',
      minAmount: 201,
    });
  });
});
