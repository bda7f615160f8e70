import { createHash } from 'node:crypto';
import type { SqlDriver } from './driver.ts';
import {
  type ApiKeyRow,
  ApiKeyRowSchema,
  type NonceRow,
  NonceRowSchema,
  type PrincipalKeyRow,
  PrincipalKeyRowSchema,
  type PrincipalKind,
  type PrincipalRow,
  PrincipalRowSchema,
  parseRows,
} from './schemas.ts';

const PRINCIPAL_COLS = 'id, kind, display_name, meta_json, created_at, disabled_at';
const KEY_COLS = 'fingerprint, principal_id, key_type, public_key, label, created_at, revoked_at';
const API_KEY_COLS =
  'id, principal_id, key_hash, prefix, scopes_json, created_at, expires_at, revoked_at, last_used_at';

/**
 * The stored form of an API key secret. Secrets are high-entropy random strings, so a plain
 * SHA-256 suffices (no password hashing needed) and lookups stay one indexed equality.
 */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Agents, people and admins, with their public keys. */
export class PrincipalsRepo {
  constructor(private readonly db: SqlDriver) {}

  async create(p: {
    id: string;
    kind: PrincipalKind;
    displayName: string;
    meta?: Record<string, unknown>;
    createdAt: number;
  }): Promise<void> {
    await this.db.query(`INSERT INTO principals (${PRINCIPAL_COLS}) VALUES ($1,$2,$3,$4,$5,NULL)`, [
      p.id,
      p.kind,
      p.displayName,
      JSON.stringify(p.meta ?? {}),
      p.createdAt,
    ]);
  }

  /**
   * A person's principal as their sign-in names them: made on the first sign-in, its display name
   * (empty when the identity provider gives none) updated on each later sign-in that gives one.
   * Another kind with this id is left alone.
   */
  async upsertPerson(p: { id: string; displayName: string; createdAt: number }): Promise<void> {
    await this.db.query(
      `INSERT INTO principals (${PRINCIPAL_COLS}) VALUES ($1,'person',$2,'{}',$3,NULL)
       ON CONFLICT (id) DO UPDATE SET display_name = EXCLUDED.display_name
       WHERE principals.kind = 'person' AND EXCLUDED.display_name <> ''
         AND principals.display_name <> EXCLUDED.display_name`,
      [p.id, p.displayName, p.createdAt],
    );
  }

  async get(id: string): Promise<PrincipalRow | null> {
    const rows = await this.db.query(`SELECT ${PRINCIPAL_COLS} FROM principals WHERE id = $1`, [id]);
    return parseRows(PrincipalRowSchema, rows)[0] ?? null;
  }

  async list(kind?: PrincipalKind): Promise<PrincipalRow[]> {
    const rows = kind
      ? await this.db.query(
          `SELECT ${PRINCIPAL_COLS} FROM principals WHERE kind = $1 ORDER BY created_at, id`,
          [kind],
        )
      : await this.db.query(`SELECT ${PRINCIPAL_COLS} FROM principals ORDER BY created_at, id`);
    return parseRows(PrincipalRowSchema, rows);
  }

  async setDisabled(id: string, at: number | null): Promise<void> {
    await this.db.query('UPDATE principals SET disabled_at = $2 WHERE id = $1', [id, at]);
  }

  /** Registers a public key (fingerprint is globally unique: one key, one principal). */
  async addKey(k: {
    fingerprint: string;
    principalId: string;
    keyType: string;
    publicKey: string;
    label?: string | null;
    createdAt: number;
  }): Promise<void> {
    await this.db.query(`INSERT INTO principal_keys (${KEY_COLS}) VALUES ($1,$2,$3,$4,$5,$6,NULL)`, [
      k.fingerprint,
      k.principalId,
      k.keyType,
      k.publicKey,
      k.label ?? null,
      k.createdAt,
    ]);
  }

  async keys(principalId: string): Promise<PrincipalKeyRow[]> {
    const rows = await this.db.query(
      `SELECT ${KEY_COLS} FROM principal_keys WHERE principal_id = $1 ORDER BY created_at, fingerprint`,
      [principalId],
    );
    return parseRows(PrincipalKeyRowSchema, rows);
  }

  /** The key with this fingerprint, unless revoked. */
  async keyByFingerprint(fingerprint: string): Promise<PrincipalKeyRow | null> {
    const rows = await this.db.query(
      `SELECT ${KEY_COLS} FROM principal_keys WHERE fingerprint = $1 AND revoked_at IS NULL`,
      [fingerprint],
    );
    return parseRows(PrincipalKeyRowSchema, rows)[0] ?? null;
  }

  async revokeKey(fingerprint: string, at: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE principal_keys SET revoked_at = $2 WHERE fingerprint = $1 AND revoked_at IS NULL RETURNING fingerprint',
      [fingerprint, at],
    );
    return rows.length === 1;
  }
}

/** API keys, stored hashed (see hashApiKey). */
export class ApiKeysRepo {
  constructor(private readonly db: SqlDriver) {}

  async create(k: {
    id: string;
    principalId: string;
    keyHash: string;
    prefix: string;
    scopes?: string[];
    createdAt: number;
    expiresAt?: number | null;
  }): Promise<void> {
    await this.db.query(`INSERT INTO api_keys (${API_KEY_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,NULL,NULL)`, [
      k.id,
      k.principalId,
      k.keyHash,
      k.prefix,
      JSON.stringify(k.scopes ?? []),
      k.createdAt,
      k.expiresAt ?? null,
    ]);
  }

  /** The live key with this hash at `now` (not revoked, not expired), or null. */
  async findLive(keyHash: string, now: number): Promise<ApiKeyRow | null> {
    const rows = await this.db.query(
      `SELECT ${API_KEY_COLS} FROM api_keys
       WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [keyHash, now],
    );
    return parseRows(ApiKeyRowSchema, rows)[0] ?? null;
  }

  async list(principalId: string): Promise<ApiKeyRow[]> {
    const rows = await this.db.query(
      `SELECT ${API_KEY_COLS} FROM api_keys WHERE principal_id = $1 ORDER BY created_at, id`,
      [principalId],
    );
    return parseRows(ApiKeyRowSchema, rows);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [id, at],
    );
    return rows.length === 1;
  }
}

/** Single-use challenges with a TTL and an audience. */
export class NoncesRepo {
  constructor(private readonly db: SqlDriver) {}

  async create(n: {
    nonce: string;
    audience: string;
    principalId?: string | null;
    createdAt: number;
    expiresAt: number;
  }): Promise<void> {
    await this.db.query(
      'INSERT INTO nonces (nonce, audience, principal_id, created_at, expires_at, used_at) VALUES ($1,$2,$3,$4,$5,NULL)',
      [n.nonce, n.audience, n.principalId ?? null, n.createdAt, n.expiresAt],
    );
  }

  /**
   * Uses the nonce once: returns it when it exists for this audience, is unexpired and unused at
   * `now`, and marks it used in the same statement — so two concurrent consumers cannot both win.
   */
  async consume(nonce: string, audience: string, now: number): Promise<NonceRow | null> {
    const rows = await this.db.query(
      `UPDATE nonces SET used_at = $3
       WHERE nonce = $1 AND audience = $2 AND used_at IS NULL AND expires_at > $3
       RETURNING nonce, audience, principal_id, created_at, expires_at, used_at`,
      [nonce, audience, now],
    );
    return parseRows(NonceRowSchema, rows)[0] ?? null;
  }

  /** Deletes nonces expired before `now`; returns how many. */
  async purge(now: number): Promise<number> {
    const rows = await this.db.query('DELETE FROM nonces WHERE expires_at <= $1 RETURNING nonce', [now]);
    return rows.length;
  }
}
