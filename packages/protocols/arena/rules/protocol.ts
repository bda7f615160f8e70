import { canonicalize, type Protocol } from '@db8/core';
import { type ArenaAction, ArenaActionSchema, reject } from './actions.ts';
import { type ArenaConfig, ArenaConfigSchema, ORGANIZER } from './config.ts';
import { dueRound, type Standings, standingsOf } from './standings.ts';
import type { ArenaState } from './state.ts';
import { type ArenaView, legalFor, viewOf } from './view.ts';

/**
 * `arena`: a tournament as a room. The organizer (the runner, or a server process) publishes each
 * round's schedule — accepted only when it is exactly the round the rules derive — then one result
 * entry per finished match carrying that match room's id and signed tree head, then the close.
 * Standings and ratings are a fold of these entries; nothing is random here (the bootstrap draws
 * from the config's seed), so a replay reproduces them bit for bit.
 */
export const arena: Protocol<ArenaConfig, ArenaState, ArenaAction, ArenaView, Standings> = {
  name: 'arena',
  version: 1,
  configSchema: ArenaConfigSchema,
  actionSchema: ArenaActionSchema,
  seats: () => [{ id: ORGANIZER, role: 'organizer' }],
  // Whoever holds the organizer seat writes the tournament's record: a seat the admin gives.
  privilegedRoles: ['organizer'],

  setup: (config) => ({
    config,
    phase: 'running',
    counter: 0,
    rounds: 0,
    matches: [],
    results: {},
    closedAt: null,
  }),

  apply(state, { seat, action, now }) {
    if (seat !== ORGANIZER) return reject('NOT_ORGANIZER', 'only the organizer writes to a tournament');
    if (state.phase === 'closed') return reject('CLOSED', 'the tournament is closed');
    const next = (patch: Partial<ArenaState>) => ({ ...state, ...patch, counter: state.counter + 1 });
    if (action.type === 'close')
      return { ok: true, state: next({ phase: 'closed', closedAt: now }), milestone: 'closed' };
    if (action.type === 'schedule') {
      const due = dueRound(state);
      if (!due) return reject('NOT_DUE', 'no round is due: matches are still playing, or every round is out');
      if (action.round !== due.round || canonicalize(action.matches) !== canonicalize(due.matches))
        return reject('SCHEDULE_MISMATCH', `round ${due.round} is not the one the rules draw`, {
          round: due.round,
        });
      return {
        ok: true,
        state: next({ rounds: due.round, matches: [...state.matches, ...due.matches] }),
        milestone: `round-${due.round}`,
      };
    }
    const match = state.matches.find((m) => m.id === action.match);
    if (!match) return reject('UNKNOWN_MATCH', `no scheduled match ${action.match}`);
    if (state.results[match.id]) return reject('ALREADY_REPORTED', `match ${match.id} has its result`);
    const named = action.placements.map((p) => p.entrant);
    if (named.length !== match.entrants.length || named.some((n, i) => n !== match.entrants[i]))
      return reject('WRONG_ENTRANTS', `match ${match.id} seats ${match.entrants.join(', ')}, in that order`, {
        entrants: match.entrants,
      });
    const { type: _type, ...result } = action;
    return { ok: true, state: next({ results: { ...state.results, [match.id]: result } }) };
  },

  tick: () => null,
  deadline: () => null,
  view: viewOf,
  legal: legalFor,
  result: (state) => (state.phase === 'closed' ? standingsOf(state) : null),
  isOver: (state) => state.phase === 'closed',
};
