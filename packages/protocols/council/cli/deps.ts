// The council's heavy modules (agents, protocol, PGlite index), loaded only when a council command runs.
export { ProviderConfigError } from '@db8/agents';
export { ARTIFACT_PATHS, transitionLines } from '../rules/index.ts';
export { openIndex } from './reindex.ts';
export { replayRun } from './replay.ts';
export { runLocalCouncil, StorageError } from './run.ts';
