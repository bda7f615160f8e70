import { z } from 'zod';
import type { SqlDriver } from './driver.ts';

const ms = z.number().int();

const InviteRowSchema = z
  .object({
    id: z.string(),
    room_id: z.string(),
    seat: z.string().nullable(),
    max_uses: z.number().int(),
    uses: z.number().int(),
    expires_at: ms,
  })
  .transform((r) => ({
    id: r.id,
    roomId: r.room_id,
    seat: r.seat,
    maxUses: r.max_uses,
    uses: r.uses,
    expiresAt: r.expires_at,
  }));
export type InviteRow = z.output<typeof InviteRowSchema>;

const RevocationRowSchema = z
  .object({ sid: z.string(), expires_at: ms })
  .transform((r) => ({ sid: r.sid, expiresAt: r.expires_at }));

/** Why an invite could not be used: gone for good, or never issued here. */
export type InviteRefusal = 'expired' | 'used_up' | 'unknown';

/** Invite links with bounded uses (migration 050). */
export class InvitesRepo {
  constructor(private readonly db: SqlDriver) {}

  async create(i: {
    id: string;
    roomId: string;
    seat: string | null;
    maxUses: number;
    createdBy: string | null;
    createdAt: number;
    expiresAt: number;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO invites (id, room_id, seat, max_uses, uses, created_by, created_at, expires_at)
       VALUES ($1,$2,$3,$4,0,$5,$6,$7)`,
      [i.id, i.roomId, i.seat, i.maxUses, i.createdBy, i.createdAt, i.expiresAt],
    );
  }

  /**
   * Takes one use, in one statement so concurrent joins cannot both take the last one. Returns the
   * row after the use, or why it was refused.
   */
  async use(id: string, now: number): Promise<InviteRow | InviteRefusal> {
    const rows = await this.db.query(
      `UPDATE invites SET uses = uses + 1 WHERE id = $1 AND uses < max_uses AND expires_at > $2
       RETURNING id, room_id, seat, max_uses, uses, expires_at`,
      [id, now],
    );
    const used = rows[0];
    if (used) return InviteRowSchema.parse(used);
    const row = (
      await this.db.query('SELECT id, room_id, seat, max_uses, uses, expires_at FROM invites WHERE id = $1', [
        id,
      ])
    )[0];
    if (!row) return 'unknown';
    return InviteRowSchema.parse(row).expiresAt <= now ? 'expired' : 'used_up';
  }

  /** Gives back a use whose join then failed (seat taken, room closed, …). */
  async refund(id: string): Promise<void> {
    await this.db.query('UPDATE invites SET uses = uses - 1 WHERE id = $1 AND uses > 0', [id]);
  }

  /** Deletes invites expired before `now`; returns how many. */
  async purge(now: number): Promise<number> {
    return (await this.db.query('DELETE FROM invites WHERE expires_at <= $1 RETURNING id', [now])).length;
  }
}

/** Sessions ended by logout before their tokens expire (migration 050). */
export class RevokedSessionsRepo {
  constructor(private readonly db: SqlDriver) {}

  /** Idempotent: revoking a session twice keeps the first record. */
  async revoke(r: { sid: string; principalId: string; revokedAt: number; expiresAt: number }): Promise<void> {
    await this.db.query(
      `INSERT INTO revoked_sessions (sid, principal_id, revoked_at, expires_at) VALUES ($1,$2,$3,$4)
       ON CONFLICT (sid) DO NOTHING`,
      [r.sid, r.principalId, r.revokedAt, r.expiresAt],
    );
  }

  /** Unexpired revocations, all or those revoked at or after `since`. */
  async inForce(since: number | null, now: number): Promise<Array<{ sid: string; expiresAt: number }>> {
    const rows = await this.db.query(
      'SELECT sid, expires_at FROM revoked_sessions WHERE expires_at > $1 AND revoked_at >= $2',
      [now, since ?? Number.MIN_SAFE_INTEGER],
    );
    return rows.map((r) => RevocationRowSchema.parse(r));
  }

  /** Deletes records whose sessions could no longer verify at `now`; returns how many. */
  async purge(now: number): Promise<number> {
    return (await this.db.query('DELETE FROM revoked_sessions WHERE expires_at <= $1 RETURNING sid', [now]))
      .length;
  }
}
