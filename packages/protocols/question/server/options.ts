import { readFileSync } from 'node:fs';
import { runtimeError } from '@db8/server/kit';
import { z } from 'zod';
import {
  COUNCIL_ID,
  DEFAULT_MAX_TTL_SEC,
  DEFAULT_ROOM_LIMITS,
  didKeyFromPublicKey,
  MAX_TTL_SEC_CAP,
  QuestionSettingsSchema,
  type Roster,
  verifyRoster,
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

/** History retention by default: 30 days after a room closed. */
export const DEFAULT_RETENTION_SEC = 2_592_000;

export const SwarmEnvSchema = z.object({
  /**
   * The federation's nats-server (JetStream), or its cluster's servers comma-separated; falls back to
   * the server's NATS_URL.
   */
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
  /** Copies a NATS cluster keeps of each stream message (1 on a single server; at most 5). */
  DB8_SWARM_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
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
  /** The shortest TTL the gate admits, seconds (TTL_TOO_SHORT). Default 1. */
  DB8_SWARM_MIN_TTL_SEC: z.coerce.number().int().min(1).max(86_400).default(1),
  /** The federation's signed roster document: its JSON, or the path of a file holding it. */
  DB8_SWARM_ROSTER: z.string().min(1).optional(),
  /** The federation key (`did:key:z6Mk…`) the roster must be signed by; required with a roster. */
  DB8_SWARM_FEDERATION_KEY: z.string().min(1).optional(),
  /** `on`: this node answers every question it is admitted to with a labelled scripted answer. */
  DB8_SWARM_SCRIPTED_RESPONDER: z.enum(['on', 'off']).default('off'),
  /**
   * A cluster's fold lease, seconds: the processes of one node (one store) fold through whichever
   * holds it; when that process dies, another takes over within this time. Default 15.
   */
  DB8_SWARM_LEASE_SEC: z.coerce.number().int().min(1).max(3600).default(15),
  /**
   * History retention, seconds: a closed or expired question room is purged from the store this
   * long after it closed (its tombstone keeps a refold from opening it again); open rooms are
   * never purged. Default 30 days (docs/swarm.md "Limits").
   */
  DB8_SWARM_RETENTION_SEC: z.coerce.number().int().min(60).max(315_360_000).default(DEFAULT_RETENTION_SEC),
});

/** The verified roster, which must name this node with this node's key (docs/swarm.md "Node keys"). */
function loadRoster(
  e: z.infer<typeof SwarmEnvSchema>,
  nodeId: string,
  nodePublicKey: Uint8Array,
): Roster | undefined {
  if (!e.DB8_SWARM_ROSTER) return undefined;
  const bad = (why: string) => runtimeError('BAD_CONFIG', `swarm roster: ${why}`);
  if (!e.DB8_SWARM_FEDERATION_KEY) throw bad('DB8_SWARM_FEDERATION_KEY is required with DB8_SWARM_ROSTER');
  let doc: unknown;
  try {
    const text = e.DB8_SWARM_ROSTER.trimStart().startsWith('{')
      ? e.DB8_SWARM_ROSTER
      : readFileSync(e.DB8_SWARM_ROSTER, 'utf8');
    doc = JSON.parse(text);
  } catch (err) {
    throw bad(`cannot read it: ${(err as Error).message}`);
  }
  const r = verifyRoster(doc, e.DB8_SWARM_FEDERATION_KEY);
  if (!r.ok) throw bad(`${r.error.code}: ${r.error.message}`);
  const me = r.value.nodes.find((n) => n['node/id'] === nodeId);
  if (!me) throw bad(`it does not name this node (${nodeId})`);
  if (me.key !== didKeyFromPublicKey(nodePublicKey)) throw bad(`it names another key for ${nodeId}`);
  if (r.value['federation/id'] !== e.DB8_SWARM_FEDERATION_ID) {
    throw bad(`it is ${r.value['federation/id']}'s; this node is in ${e.DB8_SWARM_FEDERATION_ID}`);
  }
  return r.value;
}

export interface SwarmOptions {
  natsUrl: string | null;
  prefix: string;
  stream: string;
  streamReplicas: number;
  nodeId: string;
  federationId: string;
  scopes: string[];
  settings: z.infer<typeof QuestionSettingsSchema>;
  maxAgeMs: number;
  /** The gate's TTL limit (seconds), ≤ the stream's max age. */
  maxTtlSec: number;
  /** The gate's shortest TTL (seconds). */
  minTtlSec: number;
  /** Answer admitted questions with the scripted responder (docs/swarm.md "Scripted responder"). */
  scriptedResponder: boolean;
  /** How long the fold lease lasts unrenewed (ms). */
  leaseMs: number;
  /** History retention (ms): closed rooms are purged this long after they closed. */
  retentionMs: number;
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
  if (e.DB8_SWARM_MIN_TTL_SEC > e.DB8_SWARM_MAX_TTL_SEC) {
    throw runtimeError('BAD_CONFIG', 'swarm settings: DB8_SWARM_MIN_TTL_SEC > DB8_SWARM_MAX_TTL_SEC');
  }
  if (e.DB8_SWARM_ROOM_SETTINGS?.roster) {
    throw runtimeError('BAD_CONFIG', 'swarm settings: the roster comes only from DB8_SWARM_ROSTER (signed)');
  }
  const notCouncil = (e.DB8_SWARM_ROOM_SETTINGS?.trust.issuers ?? []).filter((i) => !COUNCIL_ID.test(i));
  if (notCouncil.length > 0) {
    throw runtimeError(
      'BAD_CONFIG',
      `swarm settings: trusted nym issuers must be council:did:key ids (ISSUER_NOT_COUNCIL): ${notCouncil.join(', ')}`,
    );
  }
  const nodeId = e.DB8_SWARM_NODE_ID ?? `node:${didKeyFromPublicKey(nodePublicKey)}`;
  const roster = loadRoster(e, nodeId, nodePublicKey);
  // New rooms carry their limits in their config (rooms opened before them keep none).
  const settings = {
    ...DEFAULT_ROOM_LIMITS,
    ...(e.DB8_SWARM_ROOM_SETTINGS ?? QuestionSettingsSchema.parse({})),
  };
  return {
    natsUrl: e.DB8_SWARM_NATS_URL ?? fallbackNatsUrl,
    prefix: e.DB8_SWARM_PREFIX,
    stream: e.DB8_SWARM_STREAM,
    streamReplicas: e.DB8_SWARM_STREAM_REPLICAS,
    nodeId,
    federationId: e.DB8_SWARM_FEDERATION_ID,
    scopes: e.DB8_SWARM_SCOPES ?? [...SCOPES],
    settings: roster ? { ...settings, roster } : settings,
    maxAgeMs: e.DB8_SWARM_MAX_AGE_SEC * 1000,
    maxTtlSec: e.DB8_SWARM_MAX_TTL_SEC,
    minTtlSec: e.DB8_SWARM_MIN_TTL_SEC,
    scriptedResponder: e.DB8_SWARM_SCRIPTED_RESPONDER === 'on',
    leaseMs: e.DB8_SWARM_LEASE_SEC * 1000,
    retentionMs: e.DB8_SWARM_RETENTION_SEC * 1000,
  };
}
