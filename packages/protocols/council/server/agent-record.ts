import { type AgentRecordSource, roomRecord, sectionOf } from '@db8/server/kit';
import { type CouncilState, council } from '../rules/index.ts';

/**
 * The council's section of an agent's profile: which role it sat in each council and how the
 * council ended (its Final Packet done, or aborted). A council decides together: nobody wins.
 */
export const councilAgentRecord: AgentRecordSource = {
  async read(q, ctx) {
    const rows = [];
    let done = 0;
    for (const seat of q.seats) {
      const { state } = await ctx.runtime.protocolState(seat.roomId);
      const result = council.result(state as CouncilState);
      if (result?.status === 'completed') done++;
      const outcome = result ? `${seat.role}; council ${result.status}` : `${seat.role}; running`;
      rows.push(roomRecord(seat, { outcome }));
    }
    return sectionOf('council', rows, [{ label: 'councils with a Final Packet', value: done }], {
      winners: false,
    });
  },
};
