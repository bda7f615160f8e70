import { type AgentRecordSource, ordinal, roomRecord, sectionOf } from '@db8/server/kit';
import { type SealedBidState, sealedBid } from '../rules/index.ts';

/**
 * Sealed-bid's section of an agent's profile: per auction its place in the final ranking and
 * whether it won (and at what price) — the outcome the close publishes; a running auction (an
 * admin's profile only) is just "running", its bids still sealed.
 */
export const sealedBidAgentRecord: AgentRecordSource = {
  async read(q, ctx) {
    const rows = [];
    let paid = 0;
    for (const seat of q.seats) {
      const { state } = await ctx.runtime.protocolState(seat.roomId);
      const outcome = sealedBid.result(state as SealedBidState);
      if (!outcome) {
        rows.push(
          roomRecord(seat, { outcome: seat.status === 'open' ? 'running' : 'ended without a result' }),
        );
        continue;
      }
      const i = outcome.ranking.findIndex((r) => r.seat === seat.seat);
      const won = outcome.winner === seat.seat;
      if (won) paid += outcome.price ?? 0;
      const place = i >= 0 ? i + 1 : null;
      const words = won
        ? `won at ${outcome.price}`
        : place !== null
          ? `${ordinal(place)} of ${outcome.ranking.length}`
          : outcome.sold
            ? 'no bid'
            : outcome.reason;
      rows.push(roomRecord(seat, { outcome: words, won: outcome.sold ? won : null, place }));
    }
    return sectionOf('sealed-bid', rows, [{ label: 'paid in total', value: paid }]);
  },
};
