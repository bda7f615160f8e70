// Runtime.watchActs: a watcher may refuse a seat's action before it is planned (nothing written),
// and hears every refusal after the fact; its own failure never changes the caller's answer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Runtime, RuntimeError } from '../src/runtime/index.ts';
import type { WatchedAct } from '../src/runtime/types.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { makeRuntime } from './runtime.helpers.ts';

let store: Store;
let rt: Runtime;
beforeEach(async () => {
  store = await openStore({ memory: true });
  rt = makeRuntime(store);
});
afterEach(() => store.close());

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: RuntimeError) => e.code,
  );

describe('Runtime.watchActs', () => {
  it('hears refusals with the protocol and the error, and lets `before` refuse without writing', async () => {
    const { id } = await rt.createRoom({ protocol: 'counter', config: { players: 2 } });
    const heard: Array<[string, string, string]> = [];
    const unwatch = rt.watchActs({
      before: ({ input }) => {
        if ((input.action as { type: string }).type === 'note')
          throw new RuntimeError('RATE_LIMITED', 429, 'slow down');
      },
      refused: async (a: WatchedAct & { error: RuntimeError }) => {
        heard.push([a.protocol, a.input.seat, a.error.code]);
        throw new Error('a failing watcher');
      },
    });
    const seq = (await rt.getRoom(id)).seq;
    expect(await codeOf(rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } }))).toBe('NOT_YOUR_TURN');
    expect(await codeOf(rt.act(id, { seat: 'p1', action: { type: 'note', text: 'x' } }))).toBe(
      'RATE_LIMITED',
    );
    expect((await rt.getRoom(id)).seq).toBe(seq);
    expect(heard).toEqual([
      ['counter', 'p2', 'NOT_YOUR_TURN'],
      ['counter', 'p1', 'RATE_LIMITED'],
    ]);
    expect(await codeOf(rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } }))).toBe('ok');
    unwatch();
    expect(await codeOf(rt.act(id, { seat: 'p1', action: { type: 'note', text: 'x' } }))).toBe('ok');
    expect(heard).toHaveLength(2);
  });
});
