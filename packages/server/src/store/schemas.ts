import { z } from 'zod';

/**
 * Row schemas: the database is a boundary, so rows are parsed (snake_case → camelCase) and the
 * types below are inferred from these schemas. JSON columns hold canonical text.
 */

const ms = z.number().int();
const msOrNull = ms.nullable();

export const RoomStatusSchema = z.enum(['open', 'closed']);
export type RoomStatus = z.infer<typeof RoomStatusSchema>;

export const RoomRowSchema = z
  .object({
    id: z.string(),
    protocol: z.string(),
    protocol_version: z.number().int(),
    config_json: z.string(),
    title: z.string().nullable(),
    created_by: z.string().nullable(),
    created_at: ms,
    updated_at: ms,
    status: RoomStatusSchema,
    seed: z.string(),
    head_seq: z.number().int(),
    deadline_at: msOrNull,
    closed_at: msOrNull,
  })
  .transform((r) => ({
    id: r.id,
    protocol: r.protocol,
    protocolVersion: r.protocol_version,
    configJson: r.config_json,
    title: r.title,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    status: r.status,
    seed: r.seed,
    headSeq: r.head_seq,
    deadlineAt: r.deadline_at,
    closedAt: r.closed_at,
  }));
export type RoomRow = z.output<typeof RoomRowSchema>;
export type NewRoom = Omit<RoomRow, 'updatedAt' | 'status' | 'headSeq' | 'closedAt'> & {
  status?: RoomStatus;
};

export const SeatRowSchema = z
  .object({
    room_id: z.string(),
    seat: z.string(),
    role: z.string(),
    ord: z.number().int(),
    principal_id: z.string().nullable(),
    joined_seq: z.number().int().nullable(),
    joined_at: msOrNull,
  })
  .transform((r) => ({
    roomId: r.room_id,
    seat: r.seat,
    role: r.role,
    ord: r.ord,
    principalId: r.principal_id,
    joinedSeq: r.joined_seq,
    joinedAt: r.joined_at,
  }));
export type SeatRow = z.output<typeof SeatRowSchema>;

export const EntryRowSchema = z
  .object({
    room_id: z.string(),
    seq: z.number().int().nonnegative(),
    ts: ms,
    kind: z.string(),
    actor: z.string(),
    public_json: z.string(),
    sealed_json: z.string().nullable(),
    leaf_hash: z.string(),
  })
  .transform((r) => ({
    roomId: r.room_id,
    seq: r.seq,
    ts: r.ts,
    kind: r.kind,
    actor: r.actor,
    publicJson: r.public_json,
    sealedJson: r.sealed_json,
    leafHash: r.leaf_hash,
  }));
/** One log entry as stored: canonical public JSON, canonical sealed JSON (or null), leaf hash hex. */
export type EntryRow = z.output<typeof EntryRowSchema>;

export const SnapshotRowSchema = z
  .object({
    room_id: z.string(),
    seq: z.number().int(),
    state_hash: z.string(),
    body_json: z.string(),
    created_at: ms,
  })
  .transform((r) => ({
    roomId: r.room_id,
    seq: r.seq,
    stateHash: r.state_hash,
    bodyJson: r.body_json,
    createdAt: r.created_at,
  }));
export type SnapshotRow = z.output<typeof SnapshotRowSchema>;

export const CheckpointRowSchema = z
  .object({
    room_id: z.string(),
    size: z.number().int().positive(),
    root_hash: z.string(),
    note: z.string(),
    milestone: z.string().nullable(),
    created_at: ms,
  })
  .transform((r) => ({
    roomId: r.room_id,
    size: r.size,
    rootHash: r.root_hash,
    note: r.note,
    milestone: r.milestone,
    createdAt: r.created_at,
  }));
export type CheckpointRow = z.output<typeof CheckpointRowSchema>;

export const PrincipalKindSchema = z.enum(['agent', 'person', 'admin', 'system']);
export type PrincipalKind = z.infer<typeof PrincipalKindSchema>;

export const PrincipalRowSchema = z
  .object({
    id: z.string(),
    kind: PrincipalKindSchema,
    display_name: z.string(),
    meta_json: z.string(),
    created_at: ms,
    disabled_at: msOrNull,
  })
  .transform((r) => ({
    id: r.id,
    kind: r.kind,
    displayName: r.display_name,
    meta: z.record(z.string(), z.unknown()).parse(JSON.parse(r.meta_json)),
    createdAt: r.created_at,
    disabledAt: r.disabled_at,
  }));
export type PrincipalRow = z.output<typeof PrincipalRowSchema>;

export const PrincipalKeyRowSchema = z
  .object({
    fingerprint: z.string(),
    principal_id: z.string(),
    key_type: z.string(),
    public_key: z.string(),
    label: z.string().nullable(),
    created_at: ms,
    revoked_at: msOrNull,
  })
  .transform((r) => ({
    fingerprint: r.fingerprint,
    principalId: r.principal_id,
    keyType: r.key_type,
    publicKey: r.public_key,
    label: r.label,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
export type PrincipalKeyRow = z.output<typeof PrincipalKeyRowSchema>;

export const ApiKeyRowSchema = z
  .object({
    id: z.string(),
    principal_id: z.string(),
    key_hash: z.string(),
    prefix: z.string(),
    scopes_json: z.string(),
    created_at: ms,
    expires_at: msOrNull,
    revoked_at: msOrNull,
    last_used_at: msOrNull,
  })
  .transform((r) => ({
    id: r.id,
    principalId: r.principal_id,
    keyHash: r.key_hash,
    prefix: r.prefix,
    scopes: z.array(z.string()).parse(JSON.parse(r.scopes_json)),
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  }));
export type ApiKeyRow = z.output<typeof ApiKeyRowSchema>;

export const NonceRowSchema = z
  .object({
    nonce: z.string(),
    audience: z.string(),
    principal_id: z.string().nullable(),
    created_at: ms,
    expires_at: ms,
    used_at: msOrNull,
  })
  .transform((r) => ({
    nonce: r.nonce,
    audience: r.audience,
    principalId: r.principal_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
  }));
export type NonceRow = z.output<typeof NonceRowSchema>;

export const IdempotencyRowSchema = z
  .object({
    room_id: z.string(),
    seat: z.string(),
    key: z.string(),
    request_hash: z.string(),
    seq: z.number().int(),
    ts: ms,
  })
  .transform((r) => ({
    roomId: r.room_id,
    seat: r.seat,
    key: r.key,
    requestHash: r.request_hash,
    seq: r.seq,
    ts: r.ts,
  }));
export type IdempotencyRow = z.output<typeof IdempotencyRowSchema>;

/** Parses every row with `schema`; the one place rows cross into typed code. */
export function parseRows<S extends z.ZodType>(schema: S, rows: unknown[]): z.output<S>[] {
  return rows.map((r) => schema.parse(r));
}
