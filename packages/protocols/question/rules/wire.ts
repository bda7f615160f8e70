import { z } from 'zod';

/**
 * The swarm REST's own shapes (docs/swarm.md "REST"), shared by the server module that serves them
 * and the clients that send and read them (web, MCP): a question the node signs for its caller, and
 * one row of the question list. Defined once here so no client re-writes them.
 */

export const SCOPES = ['private-to-swarm', 'federation-local', 'cross-federation', 'global'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = (typeof SCOPES)[number];

const Label = z.string().min(1).max(200);

/** `POST /v1/swarm/questions` `{ask}`: the node completes the envelope and signs it with the calling principal’s key on that node. */
export const AskDraftSchema = z
  .object({
    text: z.string().min(1).max(8000),
    tags: z.array(Label).min(1).max(20),
    scope: ScopeSchema,
    ttl_sec: z.number().int().min(1).max(2_592_000),
    /** Optional; default `question-<random>` (db8's id alphabet, so the room id is the question id). */
    question_id: z
      .string()
      .regex(/^[A-Za-z0-9_:-]{1,96}$/)
      .optional(),
    follow_ups: z.boolean().default(true),
    languages: z.array(z.string().min(2).max(35)).max(20).optional(),
    models_require: z.array(Label).max(50).optional(),
    models_exclude: z.array(Label).max(50).optional(),
    min_reputation: z.number().min(0).max(1).optional(),
    profile: z.enum(['none', 'mediated-only', 'direct-live-allowed']).optional(),
    urgency: z.enum(['low', 'normal', 'high', 'critical']).optional(),
  })
  .strict();
export type AskDraft = z.infer<typeof AskDraftSchema>;

/** One row of `GET /v1/swarm/questions`. */
export const QuestionListItemSchema = z.object({
  question_id: z.string(),
  room_id: z.string(),
  text: z.string(),
  tags: z.array(z.string()),
  scope: z.string(),
  asker_node: z.string(),
  created_at: z.string(),
  /** created-at + ttl-sec, unix ms. */
  deadline_unix: z.number(),
  status: z.string(),
  seq: z.number().int(),
  /** Messages of kind `answer` folded so far. */
  answers: z.number().int().min(0),
});
export type QuestionListItem = z.infer<typeof QuestionListItemSchema>;
export const QuestionListSchema = z.object({ questions: z.array(QuestionListItemSchema) });

/** What a write through the ingest answers (`status: pending` when this node's fold took > 5 s). */
export const IngestAnswerSchema = z.object({
  question_id: z.string().optional(),
  stream_seq: z.number().int(),
  duplicate: z.boolean(),
  status: z.string(),
  room_seq: z.number().int().optional(),
  room_id: z.string().optional(),
});
export type IngestAnswer = z.infer<typeof IngestAnswerSchema>;

/** `GET /v1/swarm/node`, the fields a client needs: who this node signs as. */
export const SwarmNodeSchema = z
  .object({ node_id: z.string(), participant_id: z.string(), online: z.boolean() })
  .loose();
