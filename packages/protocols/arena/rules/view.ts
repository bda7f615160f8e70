import type { Legal, Viewer } from '@db8/core';
import { type EntrantSeries, seriesOf, type WinMatrix, winMatrixOf } from './charts.ts';
import type { Entrant } from './config.ts';
import { ORGANIZER } from './config.ts';
import { roundCount } from './schedule.ts';
import { completeSets, dueRound, type Standings, standingsOf } from './standings.ts';
import type { ArenaState, Match, MatchResult } from './state.ts';

/** Everything in a tournament is public: the view is the state in words, with the standings folded. */
export interface ArenaView {
  name: string;
  game: string;
  format: ArenaState['config']['format'];
  seatsPerMatch: number;
  entrants: Entrant[];
  phase: ArenaState['phase'];
  round: number;
  rounds: number;
  matches: Array<Match & { result: MatchResult | null }>;
  played: number;
  standings: Standings;
  /** The plots' data (charts.ts), folded here so the web and the CLI's exports read one copy. */
  matrix: WinMatrix;
  series: EntrantSeries[];
  you: { kind: Viewer['kind']; seat?: string };
}

export function viewOf(state: ArenaState, viewer: Viewer): ArenaView {
  const sets = completeSets(state);
  return {
    name: state.config.name,
    game: state.config.game,
    format: state.config.format,
    seatsPerMatch: state.config.seatsPerMatch,
    entrants: state.config.entrants,
    phase: state.phase,
    round: state.rounds,
    rounds: roundCount(state.config),
    matches: state.matches.map((m) => ({ ...m, result: state.results[m.id] ?? null })),
    played: Object.keys(state.results).length,
    standings: standingsOf(state),
    matrix: winMatrixOf(state, sets),
    series: seriesOf(state, sets),
    you: viewer.kind === 'seat' ? { kind: 'seat', seat: viewer.seat } : { kind: viewer.kind },
  };
}

export type ArenaLegal =
  | { type: 'schedule'; round: number; matches: Match[] }
  | { type: 'result'; match: string }
  | { type: 'close' };

/** The organizer's moves: the round that is due (in full, ready to send), results awaited, close. */
export function legalFor(state: ArenaState, seat: string): Legal<ArenaLegal> {
  if (seat !== ORGANIZER || state.phase === 'closed') return { actions: [] };
  const due = dueRound(state);
  const actions: ArenaLegal[] = [];
  if (due) actions.push({ type: 'schedule', ...due });
  for (const m of state.matches) if (!state.results[m.id]) actions.push({ type: 'result', match: m.id });
  actions.push({ type: 'close' });
  return { actions };
}
