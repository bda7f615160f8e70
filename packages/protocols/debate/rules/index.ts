// @db8/protocols/debate — the debate protocol of seed 000 (docs/debate.md), its scoring and Elo.
export * from './actions.ts';
export { ADMIN_ACTIONS, type AdminActionType } from './admin-actions.ts';
export { debateCast } from './cast.ts';
export { type ChainCheck, type ChainRound, checkRoundChain } from './chain.ts';
export * from './config.ts';
export { expDet, pow10Det } from './elo-math.ts';
export * from './events.ts';
export * from './legal.ts';
export { debate, setupDebate } from './protocol.ts';
export { checkProvenance, SSHSIG_NAMESPACE } from './provenance.ts';
export * from './ratings.ts';
export * from './research.ts';
export { computeResults } from './results.ts';
export { deadlineUnix, extendChain, roomRefOf, roundIdOf, verificationOutcome, ZERO_CHAIN } from './rules.ts';
export * from './scoring.ts';
export * from './state.ts';
export * from './submission.ts';
export * from './view.ts';
