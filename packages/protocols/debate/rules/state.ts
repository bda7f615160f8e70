import { z } from 'zod';
import { ClaimVerdictSchema, RubricCardSchema } from './actions.ts';
import { DebateConfigSchema } from './config.ts';
import { CanonicalPayloadSchema, DraftActionSchema, RoundLabelSchema } from './submission.ts';

/**
 * The debate's state. It holds every sealed input (the runtime keeps state server-side and only
 * hands out `view(state, viewer)`), so secrecy is the view's job. Plain JSON throughout, with a
 * schema so a stored snapshot can be checked when it is loaded.
 */

const Time = z.number().int();
const Seq = z.number().int().nonnegative();
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/** Every state of seed §4. `published` and `final_published` are also events in `history`. */
export const PhaseSchema = z.enum([
  'research',
  'submit',
  'verify',
  'published',
  'final_submit',
  'final_verify',
  'final_published',
  'final_vote',
  'results',
  'stats_and_reveal',
  'closed',
]);
export type Phase = z.infer<typeof PhaseSchema>;

export const SubmissionStatusSchema = z.enum([
  'none',
  'draft',
  'submitted',
  'verified',
  'rejected',
  'forfeit',
]);
export type SubmissionStatus = z.infer<typeof SubmissionStatusSchema>;

export const SignatureRecordSchema = z.object({
  kind: z.enum(['ssh', 'ed25519', 'server']),
  signature_b64: z.string().nullable(),
  /** `SHA256:…` of the key that verified (null for `server`). */
  signer_fingerprint: z.string().nullable(),
  /** SSHSIG: whether the signer was a listed key or a CA-certified one. */
  via: z.enum(['key', 'certificate']).nullable(),
  /** Base64 of the bytes signed when they are not the canonical form (the submit's `signed_b64`). */
  signed_b64: z.string().optional(),
});
export type SignatureRecord = z.infer<typeof SignatureRecordSchema>;

export const StoredSubmissionSchema = z.object({
  payload: CanonicalPayloadSchema,
  canonical_sha256: Hex64,
  version: z.number().int().positive(),
  seq: Seq,
  at: Time,
  client_nonce: z.string(),
  signature: SignatureRecordSchema,
});
export type StoredSubmission = z.infer<typeof StoredSubmissionSchema>;

export const VerdictRecordSchema = z.object({
  /** Empty when settled by the verify bound (`by: 'timeout'`). */
  claims: z.array(ClaimVerdictSchema),
  outcome: z.enum(['verified', 'rejected']),
  by: z.enum(['fact_checker', 'timeout']),
  /** The sealed verdict entry (null for a timeout). */
  seq: Seq.nullable(),
  at: Time,
  canonical_sha256: Hex64,
});
export type VerdictRecord = z.infer<typeof VerdictRecordSchema>;

export const DraftRecordSchema = DraftActionSchema.omit({ type: true }).extend({ seq: Seq, at: Time });

/** One debater's slot in one round. */
export const SlotSchema = z.object({
  status: SubmissionStatusSchema,
  /** Submissions accepted this round (resubmits included). */
  version: z.number().int().nonnegative(),
  draft: DraftRecordSchema.nullable(),
  submission: StoredSubmissionSchema.nullable(),
  /** client_nonce → canonical_sha256, for idempotency within the round. */
  nonces: z.record(z.string(), Hex64),
  verdict: VerdictRecordSchema.nullable(),
});
export type Slot = z.infer<typeof SlotSchema>;

export const ContinueVoteSchema = z.object({
  opened_at: Time,
  closes_at: Time,
  /** Set when every debater has voted: the window then ends at the next tick. */
  all_in_at: Time.nullable(),
  votes: z.record(z.string(), z.object({ choice: z.enum(['continue', 'end']), seq: Seq, at: Time })),
  tally: z
    .object({
      continue: z.number().int().nonnegative(),
      end: z.number().int().nonnegative(),
      outcome: z.enum(['continue', 'end']),
      by: z.enum(['majority', 'tie_rule']),
      at: Time,
      seq: Seq,
    })
    .nullable(),
});
export type ContinueVote = z.infer<typeof ContinueVoteSchema>;

export const ChainLinkSchema = z.object({ author: z.string(), sha256: Hex64 });

export const RoundSchema = z.object({
  index: z.number().int().positive(),
  kind: z.enum(['argument', 'final']),
  round_id: z.string(),
  label: RoundLabelSchema,
  /** When research_k began (null: no research phase). */
  research_at: Time.nullable(),
  /** When the submit window opens (the end of research). */
  opened_at: Time,
  submit_deadline: Time,
  verify_deadline: Time.nullable(),
  /** Set when the last pending submission is settled: publication is then due at once. */
  settled_at: Time.nullable(),
  published_at: Time.nullable(),
  published_seq: Seq.nullable(),
  /** The seqs the publish entry revealed: latest submissions and their verdicts, ascending. */
  revealed: z.array(Seq),
  slots: z.record(z.string(), SlotSchema),
  continue_vote: ContinueVoteSchema.nullable(),
  /** chain_i = sha256(chain_{i-1} ‖ h_i) over this round's published submissions, in seat order. */
  chain: z.object({ prev: Hex64, links: z.array(ChainLinkSchema), head: Hex64 }).nullable(),
});
export type Round = z.infer<typeof RoundSchema>;

export const BallotSchema = z.object({
  approval: z.array(z.string()),
  ranking: z.array(z.string()),
  seq: Seq,
  at: Time,
});
export type Ballot = z.infer<typeof BallotSchema>;

export const ScoreCardsSchema = z.object({
  cards: z.record(z.string(), RubricCardSchema),
  seq: Seq,
  at: Time,
});

export const StanceSetSchema = z.object({
  values: z.record(z.string(), z.number().int()),
  seq: Seq,
  at: Time,
});
export type StanceSet = z.infer<typeof StanceSetSchema>;

export const HistoryItemSchema = z.object({
  phase: PhaseSchema,
  round: z.number().int().nonnegative(),
  at: Time,
  seq: Seq,
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

export const PlacementSchema = z.object({
  seat: z.string(),
  place: z.number().int().positive(),
  approvals: z.number().int().nonnegative(),
  borda: z.number().int().nonnegative(),
  total: z.number(),
});
export type Placement = z.infer<typeof PlacementSchema>;

export const DebaterScoreSchema = z.object({
  seat: z.string(),
  /** Trimmed mean of the judges' weighted rubric scores (0–100). */
  rubric: z.number(),
  /** Per-dimension means over the judges who scored this debater (untrimmed, for display). */
  dimensions: z
    .object({ e: z.number(), r: z.number(), c: z.number(), v: z.number(), y: z.number() })
    .nullable(),
  judges: z.number().int().nonnegative(),
  movement: z.number(),
  concessions: z.number(),
  calibration: z.number(),
  brier: z.number().nullable(),
  total: z.number(),
});
export type DebaterScore = z.infer<typeof DebaterScoreSchema>;

export const DebaterStatsSchema = z.object({
  seat: z.string(),
  submitted: z.number().int().nonnegative(),
  verified: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
  forfeits: z.number().int().nonnegative(),
  resubmits: z.number().int().nonnegative(),
  signed: z.number().int().nonnegative(),
  claims: z.number().int().nonnegative(),
  verdicts: z.object({
    true: z.number().int().nonnegative(),
    false: z.number().int().nonnegative(),
    unclear: z.number().int().nonnegative(),
    needs_work: z.number().int().nonnegative(),
  }),
  concessions: z.number().int().nonnegative(),
});
export type DebaterStats = z.infer<typeof DebaterStatsSchema>;

export const ResultsSchema = z.object({
  topic: z.string(),
  tags: z.array(z.string()),
  rounds: z.number().int().nonnegative(),
  placement: z.enum(['approval', 'score']),
  /** In place order, ties in seat order; equal places are shared (standard competition ranking). */
  placements: z.array(PlacementSchema),
  scores: z.array(DebaterScoreSchema),
  stats: z.array(DebaterStatsSchema),
  ballots: z.number().int().nonnegative(),
  /** The head of the round checkpoint chain after the final round. */
  chain: Hex64,
  computed_at: Time,
  /** seat → identity (null when none was bound); null until stats_and_reveal unmasks. */
  identities: z.record(z.string(), z.string().nullable()).nullable(),
});
export type DebateResult = z.infer<typeof ResultsSchema>;

export const DebateStateSchema = z.object({
  config: DebateConfigSchema,
  /** A public per-room reference derived from the secret room seed; it makes round ids unique. */
  room_ref: z.string().regex(/^[0-9a-f]{16}$/),
  phase: PhaseSchema,
  /** The current round's index (rounds[round - 1]); 0 before the first round opens. */
  round: z.number().int().nonnegative(),
  phase_at: Time,
  /** When the current phase ends by time (null once closed). */
  phase_deadline: Time.nullable(),
  rounds: z.array(RoundSchema),
  /** Signing keys per debater seat: raw Ed25519 hex (config keys first, then registered ones). */
  keys: z.record(z.string(), z.array(Hex64)),
  ca_keys: z.array(Hex64),
  identities: z.record(z.string(), z.object({ identity: z.string(), seq: Seq, at: Time })),
  ballots: z.record(z.string(), BallotSchema),
  scores: z.record(z.string(), ScoreCardsSchema),
  stances: z.record(
    z.string(),
    z.object({ before: StanceSetSchema.nullable(), after: StanceSetSchema.nullable() }),
  ),
  /** Head of the checkpoint chain (64 zero hex before the first publish). */
  chain: Hex64,
  results: ResultsSchema.nullable(),
  journal_published: z.boolean(),
  history: z.array(HistoryItemSchema),
  /**
   * Set while an admin has paused the debate: the time the current window had left (no clock in
   * the rules: it is the pause entry's time subtracted from the window's end). Absent otherwise,
   * so rooms never operated fold to the states they always had.
   */
  paused: z
    .object({ at: Time, remaining: z.number().int().nonnegative(), by: z.string(), seq: Seq })
    .optional(),
  /** Set when an admin aborted the debate (it is then closed and unrated). */
  aborted: z.object({ at: Time, by: z.string(), reason: z.string(), seq: Seq }).optional(),
});
export type DebateState = z.infer<typeof DebateStateSchema>;
