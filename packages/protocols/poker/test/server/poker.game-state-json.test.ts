import { LocalRoom, type Viewer } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { gameStateOf, type LegalTableAction, poker, type TableView } from '../../rules/index.ts';
import { GameStateJson } from '../../server/game-state-json.ts';

const SEATS = 4;
const viewers: Viewer[] = [
  ...Array.from({ length: SEATS }, (_, i) => ({ kind: 'seat', seat: `seat_${i}` }) as const),
  { kind: 'observer' },
];

function legalOf(t: LocalRoom<typeof poker>, v: Viewer) {
  return v.kind === 'seat'
    ? (t.legal(v.seat) as { actions: readonly LegalTableAction[]; turnToken?: string })
    : undefined;
}

function payloadOf(t: LocalRoom<typeof poker>, v: Viewer) {
  return gameStateOf(t.view(v) as TableView, legalOf(t, v), t.deadline());
}

describe('poker game_state JSON shared across a table’s seats', () => {
  it('gives every viewer exactly its own payload, at every state of 40 hands', () => {
    const t = new LocalRoom({
      protocol: poker,
      config: { seats: SEATS, smallBlind: 5, bigBlind: 10, startingStack: 1000, actionTimeoutMs: 5000 },
      seed: 'c3'.repeat(32),
      now: 1_000_000,
    });
    for (let i = 0; i < SEATS; i++) t.must(`seat_${i}`, { kind: 'sitIn' });
    const json = new GameStateJson();
    const viewJson = new GameStateJson();
    let compared = 0;
    const check = () => {
      // Seats in a shuffled order each time: whoever asks first fills the shared parts.
      const order = [...viewers].sort(() => (t.seq % 2 === 0 ? 1 : -1));
      for (const v of order) {
        const gs = payloadOf(t, v);
        // From the payload (its parts split off) and from the view (parts built only when missing).
        expect(JSON.parse(json.payload('table', t.seq, gs))).toEqual(gs);
        const fromView = viewJson.bytesOfView(
          'table',
          t.seq,
          t.view(v) as TableView,
          legalOf(t, v),
          t.deadline(),
        );
        expect(JSON.parse(fromView.toString('utf8'))).toEqual(gs);
        compared++;
      }
    };
    for (let hand = 0; hand < 40; hand++) {
      t.advance();
      check();
      let step = 0;
      while (t.state.hand) {
        const seat = t.view({ kind: 'admin' }).hand?.toAct;
        if (seat === null || seat === undefined) {
          if (!t.advance()) break;
          check();
          continue;
        }
        const { actions } = t.legal(`seat_${seat}`) as { actions: LegalTableAction[] };
        // Mostly check/call, now and then an all-in raise or a fold.
        const pick = (hand * 5 + step++) % 9;
        const a =
          actions.find((x) => (pick === 0 ? x.kind === 'raiseTo' : pick === 1 ? x.kind === 'fold' : false)) ??
          actions.find((x) => x.kind === 'check' || x.kind === 'call')!;
        // A raise goes all in: called, the hands are shown while the board runs out.
        t.must(`seat_${seat}`, a.kind === 'raiseTo' ? { kind: 'raiseTo', amount: a.max } : { kind: a.kind });
        check();
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('never hands one viewer’s row to another: the hole cards are part of what is shared', () => {
    const json = new GameStateJson();
    const base = {
      protocol_version: '0.1',
      min_supported_protocol_version: '0.1',
      hand_number: 1,
      status: 'running',
      street: 'river',
      board: [],
      pot: 0,
      button: 0,
      small_blind_seat: 0,
      big_blind_seat: 1,
      to_act: null,
      blinds: { small: 5, big: 10, ante: 0 },
      deadline_ms: null,
      action_timeout_ms: 5000,
      deck_commitment: null,
      actions: [],
      last_action: null,
    } as const;
    const row = (seat_id: number, hole: string[] | null) => ({
      seat_id,
      status: 'active' as const,
      stack: 100,
      bet: 0,
      in_hand: true,
      folded: false,
      all_in: false,
      hole,
    });
    // Seat 0 sees seat 1's shown cards; seat 1's own row is blank in its own payload.
    const a = { ...base, your_seat: 0, seats: [row(0, null), row(1, ['Ah', 'Kd'])] };
    const b = { ...base, your_seat: 1, seats: [row(0, null), row(1, null)], your_hole: ['Ah', 'Kd'] };
    expect(JSON.parse(json.payload('t', 9, a as never))).toEqual(a);
    expect(JSON.parse(json.payload('t', 9, b as never))).toEqual(b);
  });

  it('builds a row once per hole cards it shows, from views too', () => {
    const t = new LocalRoom({
      protocol: poker,
      config: { seats: 2, smallBlind: 5, bigBlind: 10, startingStack: 1000, actionTimeoutMs: 5000 },
      seed: 'c4'.repeat(32),
      now: 1_000_000,
    });
    for (let i = 0; i < 2; i++) t.must(`seat_${i}`, { kind: 'sitIn' });
    t.advance();
    // As at a showdown: seat 1's cards shown to seat 0; seat 1's own row stays blank in its payload.
    const shown = t.view({ kind: 'seat', seat: 'seat_1' }) as TableView;
    const cards = shown.seats[1]!.hole!;
    const v0 = structuredClone(t.view({ kind: 'seat', seat: 'seat_0' }) as TableView);
    v0.seats[1]!.hole = cards;
    for (const order of [
      [shown, v0],
      [v0, shown],
    ]) {
      const json = new GameStateJson();
      for (const v of order) {
        const out = JSON.parse(json.bytesOfView('t', t.seq, v, undefined, null).toString('utf8'));
        expect(out).toEqual(gameStateOf(v, undefined, null));
      }
    }
    expect(gameStateOf(v0, undefined, null).seats[1]!.hole).toEqual(cards);
  });
});
