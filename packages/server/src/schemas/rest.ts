import { VisibilitySchema } from '@db8/core';
import { z } from 'zod';
import {
  IdSchema,
  IsoTimeSchema,
  ProtocolVersionSchema,
  RoleSchema,
  RoomIdSchema,
  SeatIdSchema,
} from './common.ts';
import { BudgetLimitsSchema, DriversSchema } from './drivers.ts';

/** Request and response bodies of every REST route. Unknown keys in requests are stripped. */

const Json = z.json();
const Short = (max: number) => z.string().min(1).max(max);

// ---------- entries on the wire (core's StoredEntry; kept loose so newer fields pass through) ----------

// Who may read the entry: core's schema, so an audience (`seats`) is never stripped on the way out.
export const VisibilityWireSchema = VisibilitySchema;
export const EntryWireSchema = z.looseObject({
  v: z.number().int(),
  room: z.string(),
  seq: z.number().int().nonnegative(),
  ts: z.number().int().nonnegative(),
  kind: z.string(),
  actor: z.string(),
  vis: VisibilityWireSchema,
  payload: Json.optional(),
  commit: z.string().optional(),
  reveals: z.array(z.object({ seq: z.number().int(), payload: Json, salt: z.string() })).optional(),
  sealed: z.object({ payload: Json, salt: z.string() }).optional(),
});
export type EntryWire = z.infer<typeof EntryWireSchema>;

// ---------- health ----------

export const HealthResponseSchema = z.object({ ok: z.literal(true) });
export const ReadyResponseSchema = z.object({ ok: z.boolean(), store: z.boolean(), bus: z.boolean() });

// ---------- agents & auth ----------

export const CreateAgentBodySchema = z.object({
  name: Short(64).optional(),
  metadata: z.record(z.string().max(64), Json).optional(),
  /** Optional `ssh-ed25519 AAAA…` line: lets this agent log in by SSH challenge. */
  ssh_public_key: Short(2048).optional(),
});
export type CreateAgentBody = z.infer<typeof CreateAgentBodySchema>;

export const CreateAgentResponseSchema = z.object({
  agent_id: z.string(),
  /** Shown once; the server keeps only a keyed hash. */
  api_key: z.string(),
  protocol_version: z.string(),
  skill_doc_url: z.string(),
});
export type CreateAgentResponse = z.infer<typeof CreateAgentResponseSchema>;

export const TokenBodySchema = z.object({
  api_key: Short(256),
  room_id: RoomIdSchema.optional(),
  seat: SeatIdSchema.optional(),
});
export type TokenBody = z.infer<typeof TokenBodySchema>;

export const SessionResponseSchema = z.object({
  token: z.string(),
  expires_at: IsoTimeSchema,
  principal: z.string(),
  role: RoleSchema,
  room_id: z.string().nullable(),
  seat: z.string().nullable(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

export const ChallengeBodySchema = z.object({ room_id: RoomIdSchema.optional() });
export type ChallengeBody = z.infer<typeof ChallengeBodySchema>;

export const ChallengeResponseSchema = z.object({
  /** Sign exactly this string (a trailing newline, as `jq -r` writes it, is accepted too) with namespace `db8`. */
  nonce: z.string(),
  expires_at: IsoTimeSchema,
  audience: z.string(),
  room_id: z.string().nullable(),
});
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

export const VerifyBodySchema = z.object({
  nonce: Short(512),
  /** Armored SSHSIG (`-----BEGIN SSH SIGNATURE-----`), or its base64. */
  signature: Short(16_384),
  /** Required for certificate logins: the certified principal, e.g. `anon_3@room_abc`. */
  principal: Short(256).optional(),
});
export type VerifyBody = z.infer<typeof VerifyBodySchema>;

export const LoginBodySchema = z.object({ token: Short(256) });
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const MeResponseSchema = z.object({
  principal: z.string(),
  /** The principal's display name on this server (an agent's registered name, a person's from their sign-in); null when none. */
  name: z.string().nullable(),
  role: RoleSchema,
  room_id: z.string().nullable(),
  seat: z.string().nullable(),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

/** How people sign in on this server from the web app (GET /v1/auth/providers). */
export const AuthProvidersResponseSchema = z.object({
  /** An OpenID Connect issuer for the authorization code flow with PKCE; null when none is set up. */
  oidc: z
    .object({
      issuer: z.string(),
      /** The web app's (public) client id at the issuer. */
      client_id: z.string(),
      scopes: z.array(z.string()),
      /** Which token of the issuer's answer this server accepts for POST /v1/auth/session. */
      credential: z.enum(['id_token', 'access_token']),
    })
    .nullable(),
});
export type AuthProvidersResponse = z.infer<typeof AuthProvidersResponseSchema>;

// ---------- rooms ----------

export const SeatWireSchema = z.object({
  seat: z.string(),
  role: z.string(),
  taken: z.boolean(),
  /** Played by one of the server's drivers (model or scripted): taken, and no client may join it. */
  driven: z.boolean().optional(),
  /**
   * Who sits there, as a module names it from what is already public (GET /v1/rooms/:id only; absent
   * when no module labels the room's seats, e.g. seats anonymous by design).
   */
  label: z
    .object({
      name: z.string(),
      /** The agent whose profile (GET /v1/agents/:id) this seat's player is, where one exists. */
      agent_id: z.string().optional(),
    })
    .optional(),
});
export type SeatLabel = NonNullable<z.infer<typeof SeatWireSchema>['label']>;

export const RoomSchema = z.object({
  room_id: z.string(),
  protocol: z.string(),
  title: z.string().nullable(),
  status: z.string(),
  seq: z.number().int(),
  created_at: z.number().int(),
  seats: z.array(SeatWireSchema),
  config: Json.optional(),
  protocol_version: z.number().int().optional(),
  /** Next protocol deadline, unix ms, or null. */
  deadline_ms: z.number().int().nullable().optional(),
});
export type Room = z.infer<typeof RoomSchema>;

export const CreateRoomBodySchema = z.object({
  protocol: IdSchema,
  /** The protocol's config; /docs lists each protocol's schema (the runtime checks it: BAD_CONFIG). */
  config: Json.default({}),
  title: Short(200).optional(),
  /** Seats played by the server's model drivers (docs/drivers.md). */
  drivers: DriversSchema.optional(),
  /** Limits across every driven seat of the room. */
  room_budget: BudgetLimitsSchema.optional(),
});
export type CreateRoomBody = z.input<typeof CreateRoomBodySchema>;

export const ListRoomsQuerySchema = z.object({
  protocol: IdSchema.optional(),
  status: z.enum(['open', 'closed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: Short(256).optional(),
});
export type ListRoomsQuery = z.input<typeof ListRoomsQuerySchema>;

export const ListRoomsResponseSchema = z.object({
  rooms: z.array(RoomSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});

export const RoomParamsSchema = z.object({ id: RoomIdSchema });

export const LogoutResponseSchema = z.object({ revoked: z.literal(true) });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

export const CreateInviteBodySchema = z.object({
  seat: SeatIdSchema.optional(),
  ttl_sec: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional(),
  /** How many joins the link admits (default 1): a link is never an unlimited bearer credential. */
  max_uses: z.number().int().min(1).max(1000).optional(),
});
export type CreateInviteBody = z.infer<typeof CreateInviteBodySchema>;

export const InviteResponseSchema = z.object({
  invite: z.string(),
  url: z.string(),
  room_id: z.string(),
  seat: z.string().nullable(),
  max_uses: z.number().int(),
  expires_at: IsoTimeSchema,
});
export type InviteResponse = z.infer<typeof InviteResponseSchema>;

export const JoinBodySchema = z.object({
  seat: SeatIdSchema.optional(),
  invite: Short(4096).optional(),
  client_protocol_version: ProtocolVersionSchema.optional(),
});
export type JoinBody = z.infer<typeof JoinBodySchema>;

export const JoinResponseSchema = z.object({
  room_id: z.string(),
  seat: z.string(),
  principal: z.string(),
  session_token: z.string(),
  expires_at: IsoTimeSchema,
  ws_url: z.string(),
  protocol_version: z.string(),
  min_supported_protocol_version: z.string(),
  skill_doc_url: z.string(),
});
export type JoinResponse = z.infer<typeof JoinResponseSchema>;

export const ViewerWireSchema = z.object({
  kind: z.enum(['seat', 'observer', 'admin']),
  seat: z.string().optional(),
});

export const StateSchema = z.object({
  room_id: z.string(),
  seq: z.number().int(),
  protocol: z.string(),
  status: z.string(),
  viewer: ViewerWireSchema,
  view: z.unknown(),
  legal: z.object({ actions: z.array(z.unknown()) }).nullable(),
  /** Present only for the seat whose turn it is; echo it in the action. */
  turn_token: z.string().nullable(),
  /** The server's deadline, unix seconds (rounded up), or null. Clients only count down. */
  deadline_unix: z.number().int().nullable(),
  deadline_ms: z.number().int().nullable(),
  protocol_version: z.string(),
});
export type State = z.infer<typeof StateSchema>;

export const ActionBodySchema = z.object({
  seat: SeatIdSchema,
  action: Json,
  client_nonce: Short(128).optional(),
  turn_token: Short(512).optional(),
  expected_seq: z.number().int().nonnegative().optional(),
});
export type ActionBody = z.infer<typeof ActionBodySchema>;

export const AckSchema = z.object({
  room_id: z.string(),
  seq: z.number().int(),
  duplicate: z.boolean(),
  ts: z.number().int(),
});
export type Ack = z.infer<typeof AckSchema>;

export const EntriesQuerySchema = z.object({
  fromSeq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type EntriesQuery = z.input<typeof EntriesQuerySchema>;

export const EntriesResponseSchema = z.object({
  room_id: z.string(),
  entries: z.array(EntryWireSchema),
  /** fromSeq for the next page, or null when this page reached the head. */
  next_seq: z.number().int().nullable(),
});
export type EntriesResponse = z.infer<typeof EntriesResponseSchema>;

export const SeqParamsSchema = z.object({
  id: RoomIdSchema,
  seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export const ProofResponseSchema = z.object({
  room_id: z.string(),
  seq: z.number().int(),
  leaf_hash: z.string(),
  index: z.number().int(),
  tree_size: z.number().int(),
  proof: z.array(z.string()),
  checkpoint: z.string(),
});
export type ProofResponse = z.infer<typeof ProofResponseSchema>;

export const CheckpointsResponseSchema = z.object({
  room_id: z.string(),
  checkpoints: z.array(
    z.object({
      size: z.number().int(),
      root_hash: z.string(),
      note: z.string(),
      milestone: z.string().nullable(),
    }),
  ),
});
export type CheckpointsResponse = z.infer<typeof CheckpointsResponseSchema>;

export const IssueCertBodySchema = z.object({
  /** The `ssh-ed25519 AAAA…` key to certify for your seat. */
  public_key: Short(2048),
  ttl_sec: z.number().int().min(60).max(86_400).optional(),
});
export type IssueCertBody = z.infer<typeof IssueCertBodySchema>;

export const IssueCertResponseSchema = z.object({
  /** `ssh-ed25519-cert-v01@openssh.com …` — save as `id_ed25519-cert.pub`. */
  certificate: z.string(),
  principal: z.string(),
  valid_before: IsoTimeSchema,
  /** `cert-authority` line for allowed_signers files. */
  ca_public_key: z.string(),
});
export type IssueCertResponse = z.infer<typeof IssueCertResponseSchema>;

export const EventsQuerySchema = z.object({
  /** Resume point when the client cannot send Last-Event-ID (browsers' EventSource can). */
  since: z.coerce.number().int().min(-1).max(Number.MAX_SAFE_INTEGER).optional(),
  token: Short(4096).optional(),
  /** `0`: entries only, no `state` events (one event per append). */
  state: z.enum(['0', '1']).optional(),
});
