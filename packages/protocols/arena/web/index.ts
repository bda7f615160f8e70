import { lazyPage, type WebModule } from '@db8/web/kit';

const StandingsSummary = lazyPage(() => import('./Standings.tsx').then((m) => m.StandingsSummary));

// A tournament: the generic room shows it; the module adds the standings (ratings with their
// intervals drawn as bars) and every match linked to its room. The create form is generated from
// the config schema, starting from this preset.
export const arena: WebModule = {
  protocol: 'arena',
  Summary: StandingsSummary,
  createPreset: {
    name: 'sealed-bid round robin',
    game: 'sealed-bid',
    format: { kind: 'round-robin', games: 2 },
    entrants: [
      { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
      { name: 'shader', kind: 'scripted', strategy: 'shade' },
      { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
    ],
    seatsPerMatch: 2,
    seed: 'cup-1',
  },
};
