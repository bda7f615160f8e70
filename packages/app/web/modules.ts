import { arenaWebModule } from '@db8/arena/web';
import { council } from '@db8/council/web';
import { debate } from '@db8/debate/web';
import { deliberation } from '@db8/deliberation/web';
import { poker } from '@db8/poker/web';
import { question } from '@db8/question/web';
import { sealedBid } from '@db8/sealed-bid/web';
import type { WebModule } from '@db8/web';
import { arenaScoring } from '../src/arena-scoring.ts';

// Every protocol's web module, one line each: adding a protocol's UI is its package's web/ folder
// and a line here.
export const webModules: readonly WebModule[] = [
  debate,
  poker,
  council,
  sealedBid,
  question,
  deliberation,
  // The arena's badge recomputes placements with the games' scoring (one copy with the CLI's).
  arenaWebModule(arenaScoring),
];
