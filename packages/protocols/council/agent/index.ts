export { systemPrompt, userPrompt } from './prompts.ts';
export {
  abortCouncil,
  type CouncilCall,
  type CouncilProgress,
  type CouncilRequest,
  type CouncilRoom,
  type CouncilRun,
  CouncilRunError,
  callMeta,
  completeWriteback,
  councilConfig,
  councilTurn,
  type RunCouncilOptions,
  runCouncil,
} from './runner.ts';
export {
  assessmentSchema,
  challengeSchema,
  openingSchema,
  revisionSchema,
  SCHEMA_NAMES,
  verdictSchema,
} from './schemas.ts';
export { councilScript, type ScriptInput, scriptedCouncilReply } from './scripted.ts';
