import { runtimeError } from '@db8/server/kit';
import { z } from 'zod';
import {
  DEFAULT_MAX_TTL_SEC,
  didKeyFromPublicKey,
  MAX_TTL_SEC_CAP,
  QuestionSettingsSchema,
} from '../rules/index.ts';
import { SCOPES } from './subjects.ts';

/**
 * The swarm transport's settings, from the module's environment. Every node of a federation must
 * run the same room settings (trusted nym issuers, presence lapse…): a room's copies reach one
 * Merkle root only if every node folds its stream with the same rules.
 */

const Json = z.string().transform((s, ctx) => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not JSON' });
    return z.NEVER;
  }
});

export const SwarmEnvSchema = z.object({
  /** The federation's nats-server (JetStream); falls back to the server's NATS_URL. */
  DB8_SWARM_NATS_URL: z.string().min(1).optional(),
  /** Prepended to every subject (e.g. `fed1.`): federations or test runs sharing one server. */
  DB8_SWARM_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)*$/, 'dot-terminated tokens')
    .default(''),
  DB8_SWARM_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('SWARM_QUESTIONS'),
  /** This node's `sender/node-id`; default `node:<did:key of the server key>`. */
  DB8_SWARM_NODE_ID: z.string().min(1).max(200).optional(),
  /** `sender/federation-id` of envelopes this node signs (upstream's reserved local value by default). */
  DB8_SWARM_FEDERATION_ID: z.string().min(1).max(200).default('federation:local'),
  /** Comma-separated scopes this node follows (default all four). */
  DB8_SWARM_SCOPES: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()))
    .pipe(z.array(z.enum(SCOPES)).min(1))
    .optional(),
  /** The federation's room settings (QuestionSettingsSchema), as JSON. */
  DB8_SWARM_ROOM_SETTINGS: Json.pipe(QuestionSettingsSchema).optional(),
  /** The stream's max_age backstop, seconds (the protocol's deadline is the TTL). Default 7 days. */
  DB8_SWARM_MAX_AGE_SEC: z.coerce.number().int().min(60).max(31_536_000).default(604_800),
  /**
   * The longest TTL (and the oldest created-at) the gate admits, seconds: at most the stream's
   * max age, so the stream holds every question until its deadline. Default 7 days.
   */
  DB8_SWARM_MAX_TTL_SEC: z.coerce.number().int().min(60).max(MAX_TTL_SEC_CAP).default(DEFAULT_MAX_TTL_SEC),
});

export interface SwarmOptions {
  natsUrl: string | null;
  prefix: string;
  stream: string;
  nodeId: string;
  federationId: string;
  scopes: string[];
  settings: z.infer<typeof QuestionSettingsSchema>;
  maxAgeMs: number;
  /** The gate's TTL limit (seconds), ≤ the stream's max age. */
  maxTtlSec: number;
}

export function swarmOptions(
  env: Readonly<Record<string, string | undefined>>,
  fallbackNatsUrl: string | null,
  nodePublicKey: Uint8Array,
): SwarmOptions {
  const picked = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('DB8_SWARM_')));
  const r = SwarmEnvSchema.safeParse(picked);
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw runtimeError('BAD_CONFIG', `swarm settings: ${where}`);
  }
  const e = r.data;
  if (e.DB8_SWARM_MAX_TTL_SEC > e.DB8_SWARM_MAX_AGE_SEC) {
    throw runtimeError(
      'BAD_CONFIG',
      `swarm settings: DB8_SWARM_MAX_TTL_SEC ${e.DB8_SWARM_MAX_TTL_SEC} > DB8_SWARM_MAX_AGE_SEC ${e.DB8_SWARM_MAX_AGE_SEC} (the stream would drop questions still open)`,
    );
  }
  return {
    natsUrl: e.DB8_SWARM_NATS_URL ?? fallbackNatsUrl,
    prefix: e.DB8_SWARM_PREFIX,
    stream: e.DB8_SWARM_STREAM,
    nodeId: e.DB8_SWARM_NODE_ID ?? `node:${didKeyFromPublicKey(nodePublicKey)}`,
    federationId: e.DB8_SWARM_FEDERATION_ID,
    scopes: e.DB8_SWARM_SCOPES ?? [...SCOPES],
    settings: e.DB8_SWARM_ROOM_SETTINGS ?? QuestionSettingsSchema.parse({}),
    maxAgeMs: e.DB8_SWARM_MAX_AGE_SEC * 1000,
    maxTtlSec: e.DB8_SWARM_MAX_TTL_SEC,
  };
}
