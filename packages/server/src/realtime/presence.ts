import type { PresenceEvent, RoomEvent, TypingEvent } from '@db8/core';

/**
 * Who is connected to each room and who is typing, on this node: ephemeral, from live WebSocket
 * subscriptions (never written to the signed log). A seat counts as present while at least one
 * of its sockets follows the room. A typing signal lasts `ttlMs` unless a fresh one comes; signals
 * closer than `minGapMs` apart are dropped (the client's throttle, enforced). Nothing is stored:
 * a restart forgets it all, and clients reconnecting rebuild it.
 */

export interface PresenceOptions {
  /** ms since the epoch (injectable: tests move it by hand). */
  clock: () => number;
  /** How long one typing signal lasts without a fresh one. */
  ttlMs?: number;
  /** The least time between two accepted typing signals of one seat. */
  minGapMs?: number;
}

export const TYPING_TTL_MS = 4000;
export const TYPING_MIN_GAP_MS = 1000;

interface RoomPresence {
  /** seat → open sockets and when (unix s) the first of them came. */
  seats: Map<string, { sockets: number; at: number }>;
  /** seat → typing until (ms) and when its last signal was accepted (ms). */
  typing: Map<string, { until: number; last: number }>;
  watchers: Set<(ev: RoomEvent) => void>;
  expiry: NodeJS.Timeout | null;
}

const unix = (ms: number) => Math.floor(ms / 1000);

export class PresenceRegistry {
  private readonly rooms = new Map<string, RoomPresence>();
  private readonly ttlMs: number;
  private readonly minGapMs: number;

  constructor(private readonly opts: PresenceOptions) {
    this.ttlMs = opts.ttlMs ?? TYPING_TTL_MS;
    this.minGapMs = opts.minGapMs ?? TYPING_MIN_GAP_MS;
  }

  private room(roomId: string): RoomPresence {
    let r = this.rooms.get(roomId);
    if (!r) {
      r = { seats: new Map(), typing: new Map(), watchers: new Set(), expiry: null };
      this.rooms.set(roomId, r);
    }
    return r;
  }

  /** The room's presence now (typing signals past their time are left out). */
  snapshot(roomId: string): PresenceEvent {
    const r = this.rooms.get(roomId);
    const now = this.opts.clock();
    const who = r ? [...r.seats].map(([participant_id, s]) => ({ participant_id, at: s.at })) : [];
    who.sort((a, b) => a.participant_id.localeCompare(b.participant_id));
    const typing = r ? [...r.typing].filter(([, t]) => t.until > now).map(([seat]) => seat) : [];
    return { t: 'presence', room_id: roomId, who, typing: typing.sort() };
  }

  /** A socket of `seat` follows the room; the returned function says it stopped (idempotent). */
  join(roomId: string, seat: string): () => void {
    const r = this.room(roomId);
    const s = r.seats.get(seat);
    if (s) s.sockets++;
    else {
      r.seats.set(seat, { sockets: 1, at: unix(this.opts.clock()) });
      this.broadcast(roomId, this.snapshot(roomId));
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const cur = r.seats.get(seat);
      if (!cur) return;
      if (--cur.sockets > 0) return;
      r.seats.delete(seat);
      r.typing.delete(seat);
      this.broadcast(roomId, this.snapshot(roomId));
      this.gc(roomId);
    };
  }

  /**
   * `seat` is editing a draft. Accepted (true): a `typing` event goes out, then the presence with it.
   * Dropped (false) when it comes sooner than `minGapMs` after the last accepted one, or from a
   * seat with no socket in the room.
   */
  typing(roomId: string, seat: string): boolean {
    const r = this.rooms.get(roomId);
    if (!r?.seats.has(seat)) return false;
    const now = this.opts.clock();
    const t = r.typing.get(seat);
    if (t && now - t.last < this.minGapMs) return false;
    const was = t !== undefined && t.until > now;
    r.typing.set(seat, { until: now + this.ttlMs, last: now });
    const ev: TypingEvent = {
      t: 'typing',
      room_id: roomId,
      participant_id: seat,
      until_unix: Math.ceil((now + this.ttlMs) / 1000),
    };
    this.broadcast(roomId, ev);
    if (!was) this.broadcast(roomId, this.snapshot(roomId));
    this.armExpiry(roomId, r);
    return true;
  }

  /** Follow a room's presence and typing events; the snapshot is not sent (ask `snapshot`). */
  watch(roomId: string, fn: (ev: RoomEvent) => void): () => void {
    const r = this.room(roomId);
    r.watchers.add(fn);
    return () => {
      r.watchers.delete(fn);
      this.gc(roomId);
    };
  }

  /** Rooms with any presence state (tests: nothing is left behind). */
  get size(): number {
    return this.rooms.size;
  }

  close(): void {
    for (const r of this.rooms.values()) if (r.expiry) clearTimeout(r.expiry);
    this.rooms.clear();
  }

  private broadcast(roomId: string, ev: RoomEvent): void {
    for (const fn of [...(this.rooms.get(roomId)?.watchers ?? [])]) fn(ev);
  }

  /** One timer per room, at the earliest typing expiry: expired signals go, and presence says so. */
  private armExpiry(roomId: string, r: RoomPresence): void {
    if (r.expiry) clearTimeout(r.expiry);
    r.expiry = null;
    if (r.typing.size === 0) return;
    const next = Math.min(...[...r.typing.values()].map((t) => t.until));
    r.expiry = setTimeout(() => this.expire(roomId), Math.max(0, next - this.opts.clock()));
    r.expiry.unref?.();
  }

  private expire(roomId: string): void {
    const r = this.rooms.get(roomId);
    if (!r) return;
    r.expiry = null;
    const now = this.opts.clock();
    let gone = false;
    for (const [seat, t] of r.typing) {
      if (t.until <= now) {
        r.typing.delete(seat);
        gone = true;
      }
    }
    if (gone) this.broadcast(roomId, this.snapshot(roomId));
    this.armExpiry(roomId, r);
    this.gc(roomId);
  }

  private gc(roomId: string): void {
    const r = this.rooms.get(roomId);
    if (!r || r.seats.size > 0 || r.watchers.size > 0 || r.typing.size > 0) return;
    if (r.expiry) clearTimeout(r.expiry);
    this.rooms.delete(roomId);
  }
}
