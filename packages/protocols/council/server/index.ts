import type { ProtocolModule } from '@db8/server/kit';
import { councilScript } from '../agent/index.ts';
import { council } from '../rules/index.ts';
import { councilAgent } from './agent.ts';
import { councilAgentRecord } from './agent-record.ts';
import { councilConfig } from './config.ts';
import { councilRoutes } from './routes.ts';

/** Seed 001's five-role council. */
export const councilModule: ProtocolModule = {
  protocol: council,
  prepareConfig: councilConfig,
  agent: councilAgent,
  scripted: () => councilScript,
  routes: councilRoutes,
  agentRecord: councilAgentRecord,
};
