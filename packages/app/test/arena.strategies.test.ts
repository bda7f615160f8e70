// The arena's one table of scripted strategies per game (read by the web's create form) against the
// games `db8 arena run` plays (each lists the strategies its own protocol package defines), and the
// refusal of a model entrant by a game that does not drive models.

import { GAMES, MODEL_GAMES, SCRIPTED_STRATEGIES } from '@db8/arena';
import { gameFor } from '@db8/arena/cli/game.ts';
import { DEBATE_STRATEGIES } from '@db8/debate/agent';
import { DELIBERATION_STRATEGIES } from '@db8/deliberation/agent/strategies.ts';
import { STRATEGIES as POKER_STRATEGIES } from '@db8/poker/agent/strategies.ts';
import { describe, expect, it } from 'vitest';
import { arenaGames } from '../src/arena-games.ts';

describe('SCRIPTED_STRATEGIES', () => {
  it("lists, per game, exactly the strategies that game's runner accepts", () => {
    for (const game of GAMES) {
      const g = arenaGames[game];
      expect([game, g ? [...g.strategies] : []]).toEqual([game, [...SCRIPTED_STRATEGIES[game]]]);
    }
    // …and every one is a strategy its protocol package defines.
    expect([...SCRIPTED_STRATEGIES.debate]).toEqual([...DEBATE_STRATEGIES]);
    expect([...SCRIPTED_STRATEGIES.deliberation]).toEqual([...DELIBERATION_STRATEGIES]);
    for (const name of SCRIPTED_STRATEGIES.poker) expect(Object.keys(POKER_STRATEGIES)).toContain(name);
  });

  it('MODEL_GAMES are the games whose runner takes model entrants', () => {
    const driven = GAMES.filter((g) => arenaGames[g]?.models === true);
    expect(driven).toEqual([...MODEL_GAMES]);
  });

  it('a game that does not drive models refuses a model entrant, saying so', () => {
    const config = {
      name: 'x',
      game: 'poker' as const,
      gameConfig: {},
      format: { kind: 'round-robin' as const, games: 1 },
      entrants: [
        { name: 'tight', kind: 'scripted' as const, strategy: 'tight' },
        { name: 'gpt', kind: 'model' as const, provider: 'openai', model: 'm' },
      ],
      seatsPerMatch: 2,
      seed: 's',
      concurrency: 1,
      bootstrap: 0,
      runBy: 'organizer' as const,
    };
    expect(gameFor(arenaGames, config)).toBe(arenaGames.poker);
    expect(gameFor({ poker: { ...arenaGames.poker!, models: false } }, config)).toMatch(
      /entrant gpt is a model: db8 arena run plays poker with scripted entrants only/,
    );
  });
});
