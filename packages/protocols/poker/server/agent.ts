import { clip, fixedDecision, modelDecision, type SeatAgent, withPersona } from '@db8/server/kit';
import { z } from 'zod';

/**
 * A poker seat played by a model: it sits in when first offered, then on its turn it picks one of the legal betting actions (raise-to
 * within the legal bounds). The turn token from `legal` goes with the action; a failed call sends
 * nothing, so the table's timeout rule (check if free, else fold) decides — no invented move.
 */

type PokerLegal = { kind: string; amount?: number; min?: number; max?: number };

export const pokerAgent: SeatAgent = (ctx) => {
  const legal = ctx.legal as PokerLegal[];
  // A driven seat sits in once, when the table first offers it; a seat the table sat out (too
  // many timeouts) stays out: the key is spent.
  if (legal.some((l) => l.kind === 'sitIn')) return [fixedDecision('sitIn', { kind: 'sitIn' })];
  const betting = legal.filter((l) => ['fold', 'check', 'call', 'raiseTo'].includes(l.kind));
  if (betting.length === 0 || !ctx.turnToken) return [];
  const raise = betting.find((l) => l.kind === 'raiseTo');
  const kinds = betting.map((l) => l.kind) as [string, ...string[]];
  const schema = z
    .object({
      kind: z.enum(kinds),
      amount: raise
        ? z
            .number()
            .int()
            .min(raise.min ?? 0)
            .max(raise.max ?? 0)
            .nullable()
        : z.null(),
    })
    .strict();
  const token = ctx.turnToken;
  return [
    modelDecision(
      `bet:${token}`,
      ctx.seat,
      {
        schemaName: 'poker_action',
        schema,
        description: 'Your betting action (amount only for raiseTo, else null).',
        system: withPersona(
          "You play no-limit hold'em at a db8 table. Choose one legal action. Reply only with the requested JSON.",
          ctx.persona,
        ),
        prompt: `You are ${ctx.seat}. Legal actions: ${JSON.stringify(betting)}.\nTable (your view):\n${clip(ctx.view, 8000)}`,
      },
      (v) =>
        v.kind === 'raiseTo'
          ? { kind: 'raiseTo', amount: v.amount ?? raise?.min ?? 0, turnToken: token }
          : { kind: v.kind, turnToken: token },
    ),
  ];
};
