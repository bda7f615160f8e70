import type { QuestionFacts, QuestionState, RoomMessage, SummaryRecord } from '../../rules/index.ts';

/**
 * What a bridge (IRC, Matrix…) sees of this node's answer rooms: the room opening, each message and
 * summary once in room order, and its end. Bridges only observe: nothing they receive from outside
 * is written into a room. Kept minimal so every bridge can share it.
 */
export type BridgeEvent =
  | {
      kind: 'open';
      roomId: string;
      question: QuestionFacts;
      /** True when the room was already open when the bridge started (no fresh announcement). */
      resumed: boolean;
    }
  | { kind: 'message'; roomId: string; questionId: string; message: RoomMessage }
  | { kind: 'summary'; roomId: string; questionId: string; summary: SummaryRecord }
  | {
      kind: 'close';
      roomId: string;
      questionId: string;
      status: 'closed' | 'expired';
      close: QuestionState['close'];
    };

export interface QuestionBridge {
  readonly name: string;
  /** Called in room order per room; must not throw (a bridge queues its own delivery). */
  deliver(event: BridgeEvent): void;
  stop(): Promise<void>;
}
