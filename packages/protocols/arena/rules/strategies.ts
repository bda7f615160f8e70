import type { GAMES } from './config.ts';

type Game = (typeof GAMES)[number];

/**
 * The scripted strategies a `db8 arena run` entrant may name, per game: one copy that the web's
 * create form and the CLI's games both read, kept here because the arena may not import the
 * protocols that define them (packages/app/test/arena.strategies.test.ts checks it against each
 * game's own list).
 */
export const SCRIPTED_STRATEGIES: Readonly<Record<Game, readonly string[]>> = {
  debate: ['evidence', 'hedge', 'sloppy', 'bluff', 'silent'],
  poker: ['random', 'tight', 'station'],
  'sealed-bid': ['truthful', 'shade', 'lowball'],
  deliberation: ['thorough', 'hedge', 'partial', 'bluff', 'silent'],
};

/** Games whose `db8 arena run` matches take model entrants (`kind: model`). */
export const MODEL_GAMES: readonly Game[] = ['debate', 'poker', 'sealed-bid', 'deliberation'];
