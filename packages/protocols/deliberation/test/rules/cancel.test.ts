import { describe, expect, it } from 'vitest';
import { deliberation, OPERATOR } from '../../rules/index.ts';
import { configFor, drive, Room } from './harness.ts';

describe('cancel', () => {
  it('only the operator cancels; the session stays, cancelled, with who and why, and is revealed', () => {
    const room = new Room(configFor());
    drive(room, { maxSteps: 8 });
    expect(room.act('ana', { type: 'cancel', reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_AUTHORISED' },
    });
    expect(room.legal(OPERATOR).actions).toContainEqual({ type: 'cancel' });
    room.must(OPERATOR, { type: 'cancel', reason: 'wrong topic', by: 'admin:alice' }, room.lastTs + 1000);
    expect(room.state).toMatchObject({
      status: 'cancelled',
      stepDeadline: null,
      cancellation: { by: 'admin:alice', reason: 'wrong topic' },
    });
    expect(room.closed).toBe(true);
    expect(deliberation.result(room.state)).toMatchObject({ status: 'cancelled' });
    expect(room.entries.some((e) => (e.reveals ?? []).length > 0)).toBe(true); // the end reveals sealed turns
    expect(room.act(OPERATOR, { type: 'cancel', reason: 'again' })).toMatchObject({ ok: false });
  });
});
