import type { Protocol } from '@db8/core';
import { type QuestionConfig, QuestionConfigSchema } from './config.ts';
import { type RoomInput, RoomInputSchema } from './inputs.ts';
import { initialState, type QuestionState } from './state.ts';
import { applyInput, tickRoom } from './transitions.ts';
import { legalFor, type QuestionResult, type QuestionView, resultOf, viewOf } from './view.ts';

/** The one seat: the node's relay, submitting signed bus messages in stream order. */
export const RELAY_SEAT = 'relay';

/**
 * `question` (seed 003): the answer room of one swarm question. Its config is the signed envelope,
 * its inputs are signed messages (room inputs, summaries, the close), folded in stream order; the
 * room id is the question id. Signatures are re-checked inside the fold, so replaying a room's log
 * re-verifies every input, and two nodes folding one stream reach one state.
 */
export const question: Protocol<QuestionConfig, QuestionState, RoomInput, QuestionView, QuestionResult> = {
  name: 'question',
  version: 1,
  configSchema: QuestionConfigSchema,
  actionSchema: RoomInputSchema,
  seats: () => [{ id: RELAY_SEAT, role: 'relay' }],
  reservedRoles: ['relay'],
  setup: (config, ctx) => initialState(config, ctx.now),
  apply(state, { seat, action, now, seq }) {
    if (seat !== RELAY_SEAT)
      return { ok: false, error: { code: 'NOT_AUTHORISED', message: 'inputs come through the relay seat' } };
    return applyInput(state, action, now, seq);
  },
  tick: (state, now) => tickRoom(state, now),
  deadline: (state) => (state.status === 'open' ? state.question.deadline : null),
  view: (state) => viewOf(state),
  legal: legalFor,
  result: resultOf,
  isOver: (state) => state.status !== 'open',
};
