import type { CallError, CallRecord, Provider } from '@db8/agents';
import { clipText } from '@db8/core';
import { z } from 'zod';

/**
 * Model agents for swarm answer rooms (seed 003): a secretary that summarises the room so far as
 * facts, hypotheses, recommendations and an uncertainty, and participants that answer. Each is
 * one structured call through a provider; a failed or invalid reply comes back as a failure with
 * its call record — the caller publishes nothing for it, never invented content.
 */

/** What an agent is shown of a room (a projection of its view, so this package needs no protocol). */
export interface RoomDigest {
  question: { text: string; tags: readonly string[] };
  messages: ReadonlyArray<{ kind: string; speaker: string; origin: string; text: string }>;
  summaries: ReadonlyArray<{ facts: readonly string[]; hypotheses: readonly string[]; uncertainty: number }>;
}

const Item = z.string().min(1).max(4000);
export const SummaryContentSchema = z
  .object({
    facts: z.array(Item).max(20).describe('what the answers establish, each attributable to the room'),
    hypotheses: z.array(Item).max(20).describe('claims made but not established'),
    recommendations: z.array(Item).max(20).describe('what the asker should do or check next'),
    uncertainty: z.number().min(0).max(1).describe('0 = settled, 1 = nothing known'),
  })
  .strict();
export type SummaryContent = z.infer<typeof SummaryContentSchema>;

export const AnswerContentSchema = z
  .object({ text: z.string().min(1).max(8000).describe('your answer to the question') })
  .strict();

export type AgentOutcome<T> =
  | { ok: true; value: T; record: CallRecord }
  | { ok: false; error: CallError; record: CallRecord };

const clip = (s: string, max: number) => clipText(s, max + 1);

function transcript(room: RoomDigest, max = 12_000): string {
  const lines = room.messages.map((m, i) => `${i + 1}. [${m.kind}, ${m.origin}] ${m.speaker}: ${m.text}`);
  return clip(lines.join('\n') || '(no messages yet)', max);
}

const SECRETARY_SYSTEM =
  "You are the secretary of a swarm answer room. Summarise the room so far for the asker. Use only what the room's messages say: " +
  'facts are what the answers establish or agree on, hypotheses are claims not established, recommendations are next steps. ' +
  'Set uncertainty from 0 (settled) to 1 (nothing known). Invent nothing; with no answers, say so and set uncertainty high.';

export async function secretarySummary(
  room: RoomDigest,
  provider: Provider,
  opts: { seat?: string; signal?: AbortSignal } = {},
): Promise<AgentOutcome<SummaryContent>> {
  const prev = room.summaries.at(-1);
  const prompt =
    `Question: ${room.question.text}\nTags: ${room.question.tags.join(', ')}\n\nMessages:\n${transcript(room)}` +
    (prev
      ? `\n\nPrevious summary (uncertainty ${prev.uncertainty}): ${clip(JSON.stringify(prev), 4000)}`
      : '');
  return provider.call({
    schemaName: 'swarm_summary',
    schema: SummaryContentSchema,
    description: 'A summary of the answer room so far',
    system: SECRETARY_SYSTEM,
    prompt,
    seat: opts.seat ?? 'secretary',
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

export async function participantAnswer(
  room: RoomDigest,
  provider: Provider,
  opts: { seat?: string; persona?: string; signal?: AbortSignal } = {},
): Promise<AgentOutcome<{ text: string }>> {
  const system =
    'You answer a question asked of a swarm of nodes. Be specific and brief; say what you are unsure of. ' +
    'Add to the answers already given rather than repeating them.' +
    (opts.persona ? `\n\nYour persona: ${opts.persona}` : '');
  return provider.call({
    schemaName: 'swarm_answer',
    schema: AnswerContentSchema,
    description: 'Your answer',
    system,
    prompt: `Question: ${room.question.text}\nTags: ${room.question.tags.join(', ')}\n\nAnswers so far:\n${transcript(room)}`,
    seat: opts.seat ?? 'participant',
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
