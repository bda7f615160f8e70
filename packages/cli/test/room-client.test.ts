// Pure parts of the room client: watch lines and banners, the session file, error explanations.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Db8Error, type EntryWire, type State } from '@db8/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_AUTH, EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_REJECTED } from '../src/exit-codes.ts';
import { explain } from '../src/remote.ts';
import { emptySession, loadSession, saveSession } from '../src/session.ts';
import { bannerLine, bannerOf, entryLine, resultOf, sameBanner } from '../src/watch-format.ts';

const T = Date.UTC(2026, 0, 1, 12, 0, 1);
const entry = (e: Partial<EntryWire>): EntryWire =>
  ({
    v: 1,
    room: 'r',
    seq: 3,
    ts: T,
    kind: 'action',
    actor: 'bidder_1',
    vis: { kind: 'public' },
    ...e,
  }) as EntryWire;
const state = (s: Partial<State>): State => ({
  room_id: 'r',
  seq: 3,
  protocol: 'sealed-bid',
  status: 'open',
  viewer: { kind: 'seat', seat: 'bidder_1' },
  view: { phase: 'bidding' },
  legal: null,
  turn_token: null,
  deadline_unix: null,
  deadline_ms: null,
  protocol_version: '0.1',
  ...s,
});

describe('watch lines', () => {
  it('shows public payloads canonically, sealed ones by commitment or in clear for their owner', () => {
    expect(entryLine(entry({ payload: { type: 'bid', amount: 1 } }))).toBe(
      '#3 12:00:01Z action bidder_1 {"amount":1,"type":"bid"}',
    );
    const commit = 'ab'.repeat(32);
    expect(entryLine(entry({ vis: { kind: 'seat', seat: 'bidder_1' }, commit }))).toBe(
      '#3 12:00:01Z action bidder_1 [sealed abababababab]',
    );
    expect(
      entryLine(
        entry({ commit, sealed: { payload: { amount: 7 }, salt: 's' }, vis: { kind: 'seat', seat: 'x' } }),
      ),
    ).toBe('#3 12:00:01Z action bidder_1 [sealed, visible to you] {"amount":7}');
    const tick = entry({
      kind: 'tick',
      actor: 'system',
      payload: { deadline: 5 },
      reveals: [
        { seq: 1, payload: {}, salt: 'a' },
        { seq: 2, payload: {}, salt: 'b' },
      ],
    });
    expect(entryLine(tick)).toBe('#3 12:00:01Z tick system {"deadline":5} (reveals #1 #2)');
    expect(entryLine(entry({ payload: { t: 'x'.repeat(1000) } })).length).toBeLessThan(400);
  });

  it('banners change only when phase, status, deadline or the turn change', () => {
    const a = state({ deadline_ms: T + 30_000 });
    expect(bannerLine(a, T)).toBe('── phase bidding · deadline 12:00:31Z (in 30 s)');
    expect(sameBanner(bannerOf(a), bannerOf(state({ deadline_ms: T + 30_000, seq: 9 })))).toBe(true);
    expect(sameBanner(bannerOf(a), bannerOf(state({ deadline_ms: T + 31_000 })))).toBe(false);
    expect(sameBanner(null, bannerOf(a))).toBe(false);
    const turn = state({
      view: { phase: 'reveal' },
      turn_token: 't',
      legal: { actions: [{ type: 'confirm' }, { type: 'withdraw' }] },
    });
    expect(bannerLine(turn, T)).toBe('── phase reveal · your turn: {"type":"confirm"} | {"type":"withdraw"}');
    expect(bannerLine(state({ status: 'closed', view: {} }), T)).toBe('── closed');
  });

  it('finds the result in the close entry only', () => {
    expect(resultOf(entry({ kind: 'close', payload: { seed: 's', result: { winner: 'b' } } }))).toEqual({
      winner: 'b',
    });
    expect(resultOf(entry({ kind: 'action', payload: { result: 1 } }))).toBeUndefined();
  });
});

describe('session file', () => {
  const home = mkdtempSync(join(tmpdir(), 'db8-home-'));
  const env = { DB8_HOME: join(home, 'h') };
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('round-trips at mode 0600 in a 0700 directory; a damaged file is an error, not a logout', () => {
    expect(loadSession(env)).toBeNull();
    const s = emptySession('http://127.0.0.1:1');
    s.credential = { kind: 'api_key', apiKey: 'db8k_x' };
    s.rooms.r = { seat: 'bidder_1', token: 't', expiresAt: 5 };
    saveSession(s, env);
    expect(loadSession(env)).toEqual(s);
    expect(statSync(join(env.DB8_HOME, 'session.json')).mode & 0o777).toBe(0o600);
    expect(statSync(env.DB8_HOME).mode & 0o777).toBe(0o700);
    writeFileSync(join(env.DB8_HOME, 'session.json'), '{"v":1,"v":1}');
    expect(() => loadSession(env)).toThrow(/damaged.*run db8 login again/);
    writeFileSync(join(env.DB8_HOME, 'session.json'), '{"v":2}');
    expect(() => loadSession(env)).toThrow(/not a db8 session/);
  });
});

describe('explain', () => {
  const U = 'http://h:1';
  it('maps server answers to exit codes with a next step', () => {
    const e = (status: number, code: string, message = 'm', details?: unknown) =>
      explain(new Db8Error(status, code, message, details), U, { roomId: 'room_a' });
    expect(e(401, 'INVALID_TOKEN')).toMatchObject({
      exitCode: EXIT_AUTH,
      message: expect.stringMatching(/db8 login/),
    });
    expect(e(403, 'FORBIDDEN', 'admin only').message).toMatch(/db8 login --link/);
    expect(e(403, 'SEAT_NOT_HELD')).toMatchObject({
      exitCode: EXIT_AUTH,
      message: expect.stringMatching(/db8 room join room_a$/),
    });
    expect(e(404, 'ROOM_NOT_FOUND').exitCode).toBe(EXIT_REJECTED);
    expect(e(409, 'BELOW_RESERVE', 'bids start at 10')).toMatchObject({
      exitCode: EXIT_REJECTED,
      message: 'BELOW_RESERVE: bids start at 10',
    });
    expect(e(400, 'BAD_ACTION', 'bad', [{ path: 'amount', message: 'expected number' }])).toMatchObject({
      exitCode: EXIT_INVALID_INPUT,
      message: 'BAD_ACTION: bad (amount: expected number)',
    });
    expect(e(503, 'CONFLICT_RETRY_EXHAUSTED').exitCode).toBe(EXIT_IO_ERROR);
    const net = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(explain(net, U)).toMatchObject({
      exitCode: EXIT_IO_ERROR,
      message: expect.stringMatching(/cannot reach http:\/\/h:1 \(ECONNREFUSED\)/),
    });
  });
});
