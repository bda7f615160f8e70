import { type AgentRecordSource, roomRecord, sectionOf } from '@db8/server/kit';
import { type DeliberationState, deliberation } from '../rules/index.ts';

/**
 * Deliberation's section of an agent's profile: each session it took part in, and whether its
 * proposal won the vote (the outcome the session publishes when it ends).
 */
export const deliberationAgentRecord: AgentRecordSource = {
  async read(q, ctx) {
    const rows = [];
    for (const seat of q.seats) {
      const { state } = await ctx.runtime.protocolState(seat.roomId);
      const result = deliberation.result(state as DeliberationState);
      const winner = result?.outcome?.winner ?? null;
      const won = result ? (winner === null ? null : winner === seat.seat) : null;
      const outcome = !result
        ? 'running'
        : won
          ? 'its proposal won'
          : winner
            ? `took part; ${result.status}`
            : `no winner; ${result.status}`;
      rows.push(roomRecord(seat, { outcome, won }));
    }
    return sectionOf('deliberation', rows);
  },
};
