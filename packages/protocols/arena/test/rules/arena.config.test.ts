import { describe, expect, it } from 'vitest';
import { type ArenaConfigInput, ArenaConfigSchema } from '../../rules/index.ts';

// The game settings a tournament's matches read are checked when it is made: a server that
// accepted a big blind below the small one would only find out when no match room would open.

const duplicate = (gameConfig: Record<string, unknown>): ArenaConfigInput => ({
  name: 'cup',
  game: 'poker',
  gameConfig,
  format: { kind: 'duplicate-poker', deals: 2 },
  entrants: [
    { name: 'tight', kind: 'scripted', strategy: 'tight' },
    { name: 'random', kind: 'scripted', strategy: 'random' },
  ],
  seed: 's',
});

const issues = (c: unknown) => {
  const r = ArenaConfigSchema.safeParse(c);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('arena config: game settings', () => {
  it('accepts the poker settings the games read, and keys they do not', () => {
    expect(issues(duplicate({ hands: 20, smallBlind: 5, bigBlind: 10, startingStack: 1000 }))).toEqual([]);
    expect(issues(duplicate({ actionWindowMs: 1000 }))).toEqual([]);
    expect(issues(duplicate({}))).toEqual([]);
    expect(issues(duplicate({ note: 'unread' }))).toEqual([]);
  });

  it('names the poker setting that is wrong', () => {
    expect(issues(duplicate({ hands: 0 }))).toEqual([expect.stringMatching(/^gameConfig\.hands: /)]);
    expect(issues(duplicate({ hands: '20' }))).toEqual([expect.stringMatching(/^gameConfig\.hands: /)]);
    expect(issues(duplicate({ startingStack: 2.5 }))).toEqual([
      expect.stringMatching(/^gameConfig\.startingStack: /),
    ]);
    expect(issues(duplicate({ smallBlind: 20, bigBlind: 10 }))).toEqual([
      'gameConfig.bigBlind: the big blind must be at least the small blind',
    ]);
    // An outside seat's decision window: whole milliseconds, a second to a day.
    expect(issues(duplicate({ actionWindowMs: 999 }))).toEqual([
      'gameConfig.actionWindowMs: at least 1000 ms',
    ]);
    expect(issues(duplicate({ actionWindowMs: 86_400_001 }))).toEqual([
      'gameConfig.actionWindowMs: at most a day',
    ]);
    expect(issues(duplicate({ actionWindowMs: '5s' }))).toEqual([
      'gameConfig.actionWindowMs: a whole number of milliseconds',
    ]);
    // The default big blind (10) counts: a small blind of 20 alone is refused too.
    expect(issues(duplicate({ smallBlind: 20 }))).toEqual([
      'gameConfig.bigBlind: the big blind must be at least the small blind',
    ]);
  });

  it('checks debate and sealed-bid settings by their own bounds', () => {
    const debate = {
      ...duplicate({ topic: '', rounds: 21 }),
      game: 'debate',
      format: { kind: 'round-robin', games: 1 },
    };
    expect(issues(debate).sort()).toEqual([
      expect.stringMatching(/^gameConfig\.rounds: /),
      expect.stringMatching(/^gameConfig\.topic: /),
    ]);
    // The phase window an outside debater's silence waits out: whole milliseconds, 1 s to a day.
    const windowed = (windowMs: unknown) => issues({ ...debate, gameConfig: { windowMs } });
    for (const ok of [1000, 5000, 86_400_000]) expect(windowed(ok)).toEqual([]);
    for (const bad of [999, 0, -1, 1500.5, '5000', 86_400_001])
      expect(windowed(bad)).toEqual([expect.stringMatching(/^gameConfig\.windowMs: /)]);
    const auction = { ...debate, game: 'sealed-bid', gameConfig: { item: 'x'.repeat(201) } };
    expect(issues(auction)).toEqual([expect.stringMatching(/^gameConfig\.item: /)]);
    // Sealed-bid's bidding window has the same bounds: refused when made, not clamped later.
    const bidding = (biddingWindowMs: unknown) => issues({ ...auction, gameConfig: { biddingWindowMs } });
    for (const ok of [1000, 60_000, 86_400_000]) expect(bidding(ok)).toEqual([]);
    for (const bad of [999, 0, 1500.5, '60000', 86_400_001])
      expect(bidding(bad)).toEqual([expect.stringMatching(/^gameConfig\.biddingWindowMs: /)]);
  });

  it("checks a deliberation's topic and checklist: one line of words per point", () => {
    const deliberation = (gameConfig: Record<string, unknown>) => ({
      ...duplicate(gameConfig),
      game: 'deliberation',
      format: { kind: 'round-robin', games: 1 },
    });
    expect(issues(deliberation({ topic: 'Rate limits', points: ['burst limits', 'quotas'] }))).toEqual([]);
    expect(issues(deliberation({}))).toEqual([]);
    // A point without a word would be covered by every proposal; one with a line break would split
    // into two in the prompt the judge reads the checklist from.
    for (const bad of [[''], ['  --  '], ['two\nlines'], [], Array(17).fill('p'), 'burst limits'])
      expect(issues(deliberation({ points: bad }))).toEqual([expect.stringMatching(/^gameConfig\.points/)]);
    expect(issues(deliberation({ topic: '' }))).toEqual([expect.stringMatching(/^gameConfig\.topic: /)]);
    // Each step's window an outside proposer's silence waits out: whole milliseconds, 1 s to a day.
    for (const ok of [1000, 60_000, 86_400_000]) expect(issues(deliberation({ windowMs: ok }))).toEqual([]);
    for (const bad of [999, 0, 1500.5, '60000', 86_400_001])
      expect(issues(deliberation({ windowMs: bad }))).toEqual([
        expect.stringMatching(/^gameConfig\.windowMs: /),
      ]);
  });
});

describe('arena config: who may play a duplicate', () => {
  it('refuses a server-run duplicate with an entrant that plays its own seat, and says what to use', () => {
    for (const kind of ['outside', 'person']) {
      const c = duplicate({});
      c.entrants = [...c.entrants, { name: 'visitor', kind } as never];
      expect(issues(c)).toEqual([expect.stringMatching(/^entrants\.2\.kind: .*round-robin/)]);
      // The same entrants in a round robin, or a duplicate its organizer runs, are fine.
      expect(issues({ ...c, format: { kind: 'round-robin' } })).toEqual([]);
      expect(issues({ ...c, runBy: 'organizer' })).toEqual([]);
    }
  });
});
