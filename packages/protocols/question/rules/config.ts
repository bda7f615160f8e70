import { z } from 'zod';
import { type Checked, refuse } from './codes.ts';
import { RosterSchema } from './federation.ts';
import { type Profile, ProfileSchema } from './inputs.ts';
import { envelopeRulesRefusal } from './rules.ts';
import { validateQuestionEnvelope } from './upstream.ts';
import { verifyQuestionEnvelope } from './verify.ts';

/**
 * A room's config is the signed question envelope itself plus the federation's room settings.
 * Every node of a federation builds its copy of a room from the same envelope and the same
 * settings, so every copy folds to the same state. The config is refused (BAD_CONFIG, the reason
 * code first in the message) unless the envelope is schema-valid, signed, bound to its channel and
 * keeps db8's envelope rules (`rules.ts`: id formats, times, TTL cap, a profile its scope allows).
 */

export const SCOPE_DEFAULT_PROFILE: Record<string, Profile> = {
  // Upstream proposal 005 "Default Recommendations".
  'private-to-swarm': 'mediated-only',
  'federation-local': 'mediated-only',
  'cross-federation': 'mediated-only',
  global: 'none',
};

export const QuestionSettingsSchema = z
  .object({
    /** Councils trusted to issue nym certificates, and whether leniency counts. */
    trust: z
      .object({
        issuers: z.array(z.string().min(1)).max(100).default([]),
        allowLeniency: z.boolean().default(false),
      })
      .strict()
      .default({ issuers: [], allowLeniency: false }),
    /** After this long without a signed input from the asker, a participant may take over as secretary. */
    presenceLapseMs: z.number().int().min(1000).max(86_400_000).default(300_000),
    /** Whether admitted participants may publish (candidate) summaries. */
    participantSummaries: z.boolean().default(false),
    /** Largest room input, in canonical JSON bytes. */
    maxInputBytes: z.number().int().min(1024).max(1_048_576).default(16_384),
    /** Require a responder to share one of the question's tags. */
    requireSharedTag: z.boolean().default(true),
    /**
     * Room size: participants a room admits (the asker not counted); one more join is ROOM_FULL.
     * Absent in rooms opened before the limit (no limit there); new rooms get the node's value
     * (`DEFAULT_ROOM_LIMITS`), so a room folds by the limit it opened with.
     */
    maxParticipants: z.number().int().min(1).max(10_000).optional(),
    /**
     * Summary frequency: an intermediate summary comes at least this long (stream time) after its
     * author's previous summary, else SUMMARY_TOO_SOON. A final summary is never held back (a close
     * can always follow). Absent: no limit.
     */
    summaryIntervalMs: z.number().int().min(0).max(86_400_000).optional(),
    /**
     * Secretary takeover timing under `roster-election`: when the elected node has not taken over
     * this long after the asker lapsed, the next node in the election order may (and so on). Absent
     * in rooms opened before it: the first candidate only.
     */
    takeoverWindowMs: z.number().int().min(1000).max(86_400_000).optional(),
    /** The federation's verified roster (rules 2: node ids, scope, reputation, the election). */
    roster: RosterSchema.optional(),
  })
  .strict();

/** The room limits a node opens new rooms with unless the federation's settings say otherwise. */
export const DEFAULT_ROOM_LIMITS = {
  maxParticipants: 100,
  summaryIntervalMs: 5_000,
  takeoverWindowMs: 120_000,
} as const;

/** Why a config's envelope cannot open a room, or null when it can. */
export function envelopeRefusal(
  envelope: unknown,
  trust: { issuers: readonly string[]; allowLeniency?: boolean },
) {
  const schema = validateQuestionEnvelope(envelope);
  if (!schema.ok) return schema.error;
  const env = schema.value;
  if (env['delivery/response-channel-id'] !== env['question/id']) {
    return refuse('CHANNEL_MISMATCH', 'delivery/response-channel-id must equal question/id').error;
  }
  const rules = envelopeRulesRefusal(env);
  if (rules) return rules;
  const signed = verifyQuestionEnvelope(env, trust);
  return signed.ok ? null : signed.error;
}

/**
 * The room rules' revision a room opened with (stored in its config, so a room folds by its own
 * revision forever). 1: replay keys are the inputs' own ids (a participant could take another's id).
 * 2: ids are the signer's own (docs/swarm.md "Message ids"). 3: a join's reputation is the
 * responder's record its node attests, bounded by the roster (docs/swarm.md "Reputation"). New
 * rooms open with the latest.
 */
export const ROOM_RULES = 3;
export const RoomRulesSchema = z.number().int().min(1).max(ROOM_RULES);

export const QuestionConfigSchema = z
  .object({
    envelope: z.record(z.string(), z.unknown()),
    settings: QuestionSettingsSchema.default(QuestionSettingsSchema.parse({})),
    /** Absent in rooms opened before revision 2. */
    rules: RoomRulesSchema.optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const why = envelopeRefusal(config.envelope, config.settings.trust);
    if (why) ctx.addIssue({ code: 'custom', path: ['envelope'], message: `${why.code}: ${why.message}` });
  });
export type QuestionConfig = z.infer<typeof QuestionConfigSchema>;
export type QuestionConfigInput = z.input<typeof QuestionConfigSchema>;
export type QuestionSettings = z.infer<typeof QuestionSettingsSchema>;

/** A room config from an envelope, or the refusal (with its code) a server module reports. */
export function questionConfig(
  envelope: Record<string, unknown>,
  settings: z.input<typeof QuestionSettingsSchema> = {},
): Checked<QuestionConfig> {
  const s = QuestionSettingsSchema.safeParse(settings);
  if (!s.success) return refuse('BAD_ACTION', 'bad room settings', { issues: s.error.issues });
  const why = envelopeRefusal(envelope, s.data.trust);
  if (why) return { ok: false, error: why };
  return { ok: true, value: { envelope, settings: s.data, rules: ROOM_RULES } };
}

export const ProfileOrDefault = (scope: string, requested: unknown): Profile => {
  const p = ProfileSchema.safeParse(requested);
  return p.success ? p.data : (SCOPE_DEFAULT_PROFILE[scope] ?? 'none');
};
