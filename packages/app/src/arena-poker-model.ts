// A model entrant's poker seat in `db8 arena run`: asked on its turn with the poker package's own
// model driver (packages/protocols/poker/server/agent.ts — the prompt and the schema of legal
// actions a server-run model seat gets), as arena-debate.ts asks a debater with the debate's. A
// failed call, or an answer the table refuses, is replaced by the safe legal move — check when
// free, else fold — and counted as the entrant's fallback; the match goes on.

import type { Provider } from '@db8/agents';
import type { CostMeter } from '@db8/arena/cli/cost.ts';
import type { Game } from '@db8/arena/cli/game.ts';
import type { LegalTableAction, TableView } from '@db8/poker';
import { pokerAgent } from '@db8/poker/server/agent.ts';

type Room = Parameters<Game['play']>[0];

export async function modelPokerMove(
  room: Room,
  seat: string,
  entrant: string,
  provider: Provider,
  meter: CostMeter,
): Promise<void> {
  const view = room.view({ kind: 'seat', seat }) as TableView;
  const legal = room.legal(seat) as { actions: LegalTableAction[]; turnToken?: string };
  const decisions = pokerAgent({
    roomId: room.id,
    seat,
    role: null,
    view,
    legal: legal.actions,
    turnToken: legal.turnToken ?? null,
    persona: null,
    now: 0,
  });
  const d = decisions[0];
  if (d) {
    const outcome = await d.run(provider, new AbortController().signal);
    if (outcome.action !== null && tryMust(room, seat, outcome.action)) return;
  }
  meter.fallback(entrant);
  const kinds = legal.actions.map((a) => a.kind);
  room.must(seat, { kind: kinds.includes('check') ? 'check' : 'fold', turnToken: legal.turnToken });
}

function tryMust(room: Room, seat: string, action: unknown): boolean {
  try {
    room.must(seat, action);
    return true;
  } catch {
    return false;
  }
}
