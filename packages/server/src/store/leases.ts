import type { SqlDriver } from './driver.ts';

/** Named leases (migration 070): one holder at a time, until it stops renewing. */
export class LeasesRepo {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Takes or renews lease `name` for `holder` for `ttlMs` from now (the database's now): true when
   * `holder` holds it afterwards, false while another holder's lease has not expired.
   */
  async take(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query<{ holder: string }>(
      `INSERT INTO leases (name, holder, expires_at)
         VALUES ($1, $2, now() + $3::float8 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE leases.holder = EXCLUDED.holder OR leases.expires_at < now()
       RETURNING holder`,
      [name, holder, ttlMs],
    );
    return rows.length === 1;
  }

  /** Gives the lease up at once (a clean stop), so another process need not wait for it to expire. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  /**
   * The unexpired leases whose names start with `prefix` (a tournament's match slots, its nodes):
   * how a cluster counts who holds a family of leases. A plain prefix, not a LIKE pattern.
   */
  async live(prefix: string): Promise<{ name: string; holder: string }[]> {
    return this.db.query<{ name: string; holder: string }>(
      'SELECT name, holder FROM leases WHERE left(name, length($1)) = $1 AND expires_at >= now() ORDER BY name',
      [prefix],
    );
  }

  async holderOf(name: string): Promise<string | null> {
    const [row] = await this.db.query<{ holder: string }>(
      'SELECT holder FROM leases WHERE name = $1 AND expires_at >= now()',
      [name],
    );
    return row?.holder ?? null;
  }
}
