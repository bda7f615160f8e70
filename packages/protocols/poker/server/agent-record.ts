import { type AgentRecordSource, roomRecord, sectionOf } from '@db8/server/kit';
import type { TableState } from '../rules/index.ts';
import { seatNumber } from './service.ts';

/**
 * Poker's section of an agent's profile: per table its hands and chips won or lost (stack − bought,
 * as the table's result publishes them when it stops), and over all tables the net in big blinds
 * per 100 hands. A running table (an admin's profile only) counts as it stands.
 */
export const pokerAgentRecord: AgentRecordSource = {
  async read(q, ctx) {
    const rows = [];
    let hands = 0;
    let net = 0;
    let bigBlinds = 0;
    for (const seat of q.seats) {
      const n = seatNumber(seat.seat);
      if (n === null) continue; // the house seat
      const { state } = await ctx.runtime.protocolState(seat.roomId);
      const s = (state as TableState).seats[n];
      if (!s) continue;
      const won = s.stack - s.bought;
      hands += s.handsPlayed;
      net += won;
      bigBlinds += won / (state as TableState).config.bigBlind;
      const sign = won > 0 ? '+' : '';
      rows.push(
        roomRecord(seat, {
          outcome: `${sign}${won} chips over ${s.handsPlayed} hands${seat.status === 'open' ? ' (running)' : ''}`,
          won: s.handsPlayed > 0 ? won > 0 : null,
        }),
      );
    }
    return sectionOf(
      'poker',
      rows,
      [
        { label: 'hands', value: hands },
        { label: 'net chips', value: net },
        ...(hands > 0 ? [{ label: 'bb/100', value: Math.round((bigBlinds / hands) * 10000) / 100 }] : []),
      ],
      { winners: false },
    );
  },
};
