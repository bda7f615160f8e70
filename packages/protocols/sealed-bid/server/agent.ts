import type { Script, ScriptStep } from '@db8/agents';
import { type Decision, modelDecision, withPersona } from '@db8/server/kit';
import { z } from 'zod';
import type { AuctionRule } from '../rules/index.ts';

/**
 * A bidder seat played by a model: told the item, its private value, the number of bidders and the
 * price rule, it answers one sealed bid (or none). The answer is not checked against the value (a
 * bid above it is legal, only unwise); the rules refuse one below the reserve, and the caller then
 * sends nothing — no invented bid.
 */

export interface BidAsk {
  item: string;
  /** What winning the item is worth to this bidder (its score is value − price when it wins). */
  value: number;
  bidders: number;
  rule: AuctionRule;
  reservePrice: number;
  persona?: string | null;
}

const BidSchema = z.object({ bid: z.number().int().nullable() }).strict();

export function bidDecision(seat: string, ask: BidAsk): Decision {
  const price =
    ask.rule === 'first-price' ? 'the winner pays its own bid' : 'the winner pays the second-highest bid';
  return modelDecision(
    'bid',
    seat,
    {
      schemaName: 'sealed_bid',
      schema: BidSchema,
      description: 'Your sealed bid in whole units, or null to not bid.',
      system: withPersona(
        'You bid in a sealed-bid auction at db8. Maximise your surplus (value minus price if you win; 0 if you lose). Reply only with the requested JSON.',
        ask.persona ?? null,
      ),
      prompt: `You are ${seat}, one of ${ask.bidders} bidders for ${JSON.stringify(ask.item)}. The item is worth ${ask.value} to you. Bids are sealed and revealed at once; the highest bid wins and ${price}. Bids start at ${ask.reservePrice}.`,
    },
    (v) => (v.bid === null ? null : { type: 'bid', amount: v.bid }),
  );
}

/**
 * The scripted cast of a bidder (`provider: "scripted"`): bids 1 — the reserve of the arena's
 * auctions — so its call records say scripted and it cannot pass for a strategy.
 */
export const sealedBidScript: Script = (): ScriptStep => ({ json: { bid: 1 } });
