// @db8/agents/debate — scripted debate participants (demo, end-to-end test, benchmark).
export {
  defaultPreference,
  type ScriptedDecision,
  type ScriptOptions,
  scriptedDecisions,
  scriptedSubmission,
} from './scripted.ts';
