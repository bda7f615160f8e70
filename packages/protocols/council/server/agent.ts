import { type Decision, fixedDecision, type SeatAgent } from '@db8/server/kit';
import { councilTurn } from '../agent/index.ts';
import {
  type CouncilLegalAction,
  type CouncilView,
  isTurnStage,
  OPERATOR,
  roleOfSeat,
} from '../rules/index.ts';

/**
 * The council's five roles and its operator, as server drivers. Each role's turn is the same code
 * the local runner uses (`councilTurn`), fed the seat's own view (sealed turns left out); a failed
 * call is submitted as the protocol's `failed` turn with its call record — never as content.
 * The operator's writeback receipt points at the packet route of this room.
 */
export const councilAgent: SeatAgent = (ctx) => {
  const view = ctx.view as CouncilView;
  const legal = ctx.legal as CouncilLegalAction[];
  const out: Decision[] = [];
  if (ctx.seat === OPERATOR) {
    const wb = legal.find((l) => l.type === 'writeback');
    if (wb && wb.type === 'writeback') {
      out.push(
        fixedDecision(`writeback:${wb.packetSha256}`, {
          type: 'writeback',
          recordPath: `/v1/rooms/${ctx.roomId}/council/packet.json`,
          packetSha256: wb.packetSha256,
        }),
      );
    }
    return out;
  }
  const role = roleOfSeat(ctx.seat);
  const stage = view.stage;
  if (!role || !isTurnStage(stage) || !legal.some((l) => l.type !== 'failed')) return out;
  const turns = view.turns.filter((t) => t.kind !== 'sealed') as never;
  out.push({
    key: `turn:${stage}`,
    async run(provider, signal) {
      const { action, record } = await councilTurn(
        { config: view.config, turns, consensus: view.consensus },
        provider,
        role,
        stage,
        ctx.now,
        signal,
      );
      const error = action.type === 'failed' ? action.error : null;
      return { action, record, error };
    },
  });
  return out;
};
