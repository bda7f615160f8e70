import { lazyPage, titleFromField, type WebModule } from '@db8/web/kit';
import { createElement } from 'react';
import type { GameCheck } from '../rules/verify-bundles.ts';

const StandingsSummary = lazyPage(() => import('./Standings.tsx').then((m) => m.StandingsSummary));
const ArenaProfile = lazyPage(() => import('./ProfileSection.tsx').then((m) => m.ArenaProfileSection));
const CreateArena = lazyPage(() => import('./CreateArena.tsx').then((m) => m.CreateArena));

/** How each game's result places its entrants, by protocol name: the composition root's (games are other protocols). */
export type ArenaScoring = Readonly<Record<string, Pick<GameCheck, 'placements' | 'hands'>>>;

// A tournament: the generic room shows it; the module adds the standings, the plots (ratings with
// their intervals, bankroll curves with bands, the win-rate matrix), CSV/JSON downloads of every
// table and every match linked to its room, and its own create form. The "verified" badge
// recomputes each match's placements with `scoring` (a game without one is checked without it).
export function arenaWebModule(scoring: ArenaScoring = {}): WebModule {
  return {
    protocol: 'arena',
    // biome-ignore lint/correctness/noComponentHookFactories: made once, where web/modules.ts lists the modules.
    Summary: (props) => createElement(StandingsSummary, { ...props, scoring }),
    CreateForm: CreateArena,
    ProfileSection: ArenaProfile,
    titleFromConfig: titleFromField('name'),
    // A tournament made without a room title is headed by its config's name.
    roomTitle: (view) => {
      const name = (view as { name?: unknown } | null | undefined)?.name;
      return typeof name === 'string' && name !== '' ? name : null;
    },
  };
}
