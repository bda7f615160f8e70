import { z } from 'zod';
import type { QuestionState } from './state.ts';

/**
 * A responder's reputation (docs/swarm.md "Reputation"), rules 3. Pure: no clock, no I/O; the same
 * inputs give the same figure on every node.
 *
 * - The **record** of a responder (a participant key): over the closed and expired question rooms
 *   a node holds, `given` = answers that key signed, `accepted` = those of them an asker accepted
 *   with a verdict relayed (and countersigned) by a roster node **other than** the node the answer
 *   came through. The responder's own node cannot vouch for it, nor can its own key (an asker's
 *   verdict on its own answer), nor a node outside the roster.
 * - The **figure**: `(accepted + 1) / (given + 2)` (Laplace's rule: a new responder, 0 of 0, is
 *   1/2), never above the roster's `reputation` for the node that relays the join.
 */

/** The record the relaying node attests in a join (`gateway/record`, covered by its countersignature). */
export const ResponderRecordSchema = z
  .object({
    given: z.number().int().min(0).max(1_000_000),
    accepted: z.number().int().min(0).max(1_000_000),
  })
  .strict()
  .refine((r) => r.accepted <= r.given, 'accepted answers are answers given');
export type ResponderRecord = z.infer<typeof ResponderRecordSchema>;

export const NEW_RESPONDER: ResponderRecord = { given: 0, accepted: 0 };

/** The figure of a record: Laplace's rule of succession. */
export function recordFigure(r: ResponderRecord): number {
  return (r.accepted + 1) / (r.given + 2);
}

/** The reputation a room uses: the record's figure, bounded by the roster's figure for the relaying node. */
export function responderReputation(record: ResponderRecord | undefined, nodeReputation: number): number {
  return Math.min(nodeReputation, recordFigure(record ?? NEW_RESPONDER));
}

/** What the record needs of a room: its status, roster and answers (a `QuestionState` or its view). */
export interface RoomFacts {
  status: QuestionState['status'];
  question: { asker: string };
  messages: ReadonlyArray<{
    kind: string;
    author: string;
    gateway: string;
    verdict: 'accept' | 'reject' | null;
    /** Rules 3: the roster node that countersigned the verdict. */
    verdictNode?: string;
  }>;
}

/** A responder's record over rooms (order does not matter; open rooms do not count yet). */
export function responderRecord(rooms: Iterable<RoomFacts>, responder: string): ResponderRecord {
  let given = 0;
  let accepted = 0;
  for (const room of rooms) {
    if (room.status === 'open') continue;
    for (const m of room.messages) {
      if (m.kind !== 'answer' || m.author !== responder) continue;
      given++;
      // `verdictNode` is set only for a verdict a roster node countersigned (rules 3, `transitions.ts`).
      const by = m.verdictNode;
      const vouched = by !== undefined && by !== m.gateway && room.question.asker !== responder;
      if (m.verdict === 'accept' && vouched) accepted++;
    }
  }
  return { given, accepted };
}
