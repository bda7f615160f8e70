import { lazyPage, type WebModule } from '@db8/web/kit';

const StandingsSummary = lazyPage(() => import('./Standings.tsx').then((m) => m.StandingsSummary));
const CreateArena = lazyPage(() => import('./CreateArena.tsx').then((m) => m.CreateArena));

// A tournament: the generic room shows it; the module adds the standings, the plots (ratings with
// their intervals, bankroll curves with bands, the win-rate matrix), CSV/JSON downloads of every
// table and every match linked to its room, and its own create form.
export const arena: WebModule = {
  protocol: 'arena',
  Summary: StandingsSummary,
  CreateForm: CreateArena,
};
