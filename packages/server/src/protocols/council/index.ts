import { councilScript } from '@db8/agents';
import { council } from '@db8/protocols/council';
import type { ProtocolModule } from '../../kit/index.ts';
import { councilAgent } from './agent.ts';
import { councilConfig } from './config.ts';
import { councilRoutes } from './routes.ts';

/** Seed 001's five-role council. */
export const councilModule: ProtocolModule = {
  protocol: council,
  prepareConfig: councilConfig,
  agent: councilAgent,
  scripted: () => councilScript,
  routes: councilRoutes,
};
