// @db8/agents/debate — scripted debate participants (demo, end-to-end test, benchmark).
export {
  defaultPreference,
  type ScriptedDecision,
  type ScriptOptions,
  scriptedDecisions,
  scriptedSubmission,
} from './scripted.ts';
export {
  DEBATE_STRATEGIES,
  type DebateStrategy,
  houseCard,
  houseDecisions,
  houseVerdict,
  strategyDecisions,
  strategySubmission,
} from './strategies.ts';
