import { commitmentOf } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { revealIndex } from '../src/lib/reveals.ts';
import type { Entry } from '../src/lib/types.ts';

const salt = 'ab'.repeat(32);
const sealed: Entry = {
  v: 1,
  room: 'r',
  seq: 3,
  ts: 1,
  kind: 'action',
  actor: 'bidder_1',
  vis: { kind: 'seat', seat: 'bidder_1' },
  commit: commitmentOf({ payload: { type: 'bid', amount: 150 }, salt }),
};
const tick = (payload: unknown): Entry => ({
  v: 1,
  room: 'r',
  seq: 6,
  ts: 2,
  kind: 'tick',
  actor: 'system',
  vis: { kind: 'public' },
  payload: {},
  reveals: [{ seq: 3, payload: payload as never, salt }],
});

describe('revealIndex', () => {
  it('pairs a sealed entry with the entry that reveals it and checks the commitment', () => {
    const idx = revealIndex([sealed, tick({ type: 'bid', amount: 150 })]);
    expect(idx.get(3)).toEqual({ by: 6, payload: { type: 'bid', amount: 150 }, ok: true });
  });

  it('flags a reveal that does not match the commitment', () => {
    expect(revealIndex([sealed, tick({ type: 'bid', amount: 151 })]).get(3)?.ok).toBe(false);
  });

  it('cannot vouch for a reveal whose sealed entry is not loaded', () => {
    expect(revealIndex([tick({ type: 'bid', amount: 150 })]).get(3)?.ok).toBe(false);
  });
});
