/**
 * When a cached room must re-read its stored tail (Postgres, other nodes writing): only when the
 * bus announced a seq past the cached one, or when the last check is older than `staleMs` (a lost
 * bus message then costs at most that much staleness, never a wrong write: the unique seq catches
 * those). Without announcements every read checks, as other writers cannot be heard.
 */
export class TailWatch {
  /** The newest seq the bus announced past a cached room. */
  private readonly heard = new Map<string, number>();
  /** When each cached room was last known current (a tail check, a load or a commit). */
  private readonly checkedAt = new Map<string, number>();

  constructor(
    private readonly clock: () => number,
    private readonly staleMs: number,
  ) {}

  /** The bus announced `seq`; `cachedSeq` is the room's cached seq (null: not cached, not loading). */
  hear(roomId: string, seq: number, cachedSeq: number | null | undefined): void {
    if (cachedSeq === null || (cachedSeq !== undefined && cachedSeq >= seq)) return;
    if (seq > (this.heard.get(roomId) ?? -1)) this.heard.set(roomId, seq);
  }

  behind(roomId: string, cachedSeq: number): boolean {
    if ((this.heard.get(roomId) ?? -1) > cachedSeq) return true;
    return this.clock() - (this.checkedAt.get(roomId) ?? Number.NEGATIVE_INFINITY) >= this.staleMs;
  }

  /** The cached room is the stored tail as of now. */
  checked(roomId: string, seq: number): void {
    this.checkedAt.set(roomId, this.clock());
    if ((this.heard.get(roomId) ?? -1) <= seq) this.heard.delete(roomId);
  }

  forget(roomId?: string): void {
    if (roomId === undefined) {
      this.heard.clear();
      this.checkedAt.clear();
    } else {
      this.heard.delete(roomId);
      this.checkedAt.delete(roomId);
    }
  }
}
