import { canSee, redactEntry, type StoredEntry, type Viewer } from '@db8/core';
import { stateToWire } from '../routes/wire.ts';
import type { State } from '../schemas/rest.ts';
import { type FeedSink, type FeedSource, Subscription } from './feed.ts';
import { Frame } from './frame.ts';
import type { FeedPort } from './port.ts';

const PAGE = 500;
/** The channel reads entries unredacted (as an admin may) once, and redacts them per viewer class. */
const UNREDACTED: Viewer = { kind: 'admin' };

/**
 * Where the channel's reading stands: `idle` (caught up), `scheduled` (a read is queued for the next
 * turn), `reading`, `reading-again` (a notification came mid-read: it reads once more when done),
 * `closed` (no subscriber left).
 */
type ReadState = 'idle' | 'scheduled' | 'reading' | 'reading-again' | 'closed';

/** A class's state fetch (stateFor): `fetching-again` when asked again mid-fetch (one more follows). */
type FetchState = 'idle' | 'fetching' | 'fetching-again';

/** An entry the channel has read, with its frames: one everyone may see, one redacted if sealed. */
interface Item {
  entry: StoredEntry;
  full: Frame;
  redacted?: Frame;
}

/** The subscribers that share one viewer (observer, admin, or one seat) and its cached state. */
interface ViewerClass {
  viewer: Viewer;
  subs: Set<Subscription>;
  /** The newest state built for this class (stateFor runs once per class and seq, not per socket). */
  state: Frame | null;
  fetch: FetchState;
}

export interface ChannelOptions {
  /** Recent entries kept in memory so a new or resuming subscriber near the head needs no read. */
  buffer?: number;
  onEmpty?: () => void;
}

/**
 * Per node, one channel per watched room. When the bus (or the hub's poll) says seq n exists, the
 * channel reads the new entries from the store once — by seq, from its own `last + 1`, so a lost,
 * late or repeated bus message cannot gap or duplicate — and hands every caught-up subscriber the
 * frame for its viewer class. State is built once per class (and seq) and shared the same way.
 * A subscriber further behind than the buffer reads its own backlog from the store, then joins.
 */
export class RoomChannel implements FeedSource {
  /** Seq of the newest entry read (null until the first subscriber joins: it sets the start). */
  private last: number | null = null;
  /** The newest seq the bus announced: a pump served from this node's commits runs on up to it. */
  private wanted = -1;
  /** Contiguous entries ending at `last`, oldest first. */
  private readonly recent: Item[] = [];
  private readonly classes = new Map<string, ViewerClass>();
  private reading: ReadState = 'idle';
  private readonly offBus: () => void;
  private readonly bufferSize: number;

  constructor(
    private readonly ctx: FeedPort,
    readonly roomId: string,
    private readonly opts: ChannelOptions = {},
  ) {
    this.bufferSize = opts.buffer ?? 1024;
    this.offBus = ctx.bus.subscribe(roomId, (e) => this.notify(e.seq));
  }

  /** A new subscriber after `since` (idle until its `start()`). */
  add(viewer: Viewer, since: number, sink: FeedSink): Subscription {
    const sub = new Subscription(this, viewer, since, sink);
    let c = this.classes.get(sub.key);
    if (!c) {
      c = { viewer, subs: new Set(), state: null, fetch: 'idle' };
      this.classes.set(sub.key, c);
    }
    c.subs.add(sub);
    return sub;
  }

  get size(): number {
    let n = 0;
    for (const c of this.classes.values()) n += c.subs.size;
    return n;
  }

  /** Something was appended up to `seq` (or maybe was: null, from the poll). */
  notify(seq: number | null): void {
    if (seq !== null && seq > this.wanted) this.wanted = seq;
    if (this.last === null || (seq !== null && seq <= this.last)) return;
    if (this.reading === 'reading') this.reading = 'reading-again';
    if (this.reading !== 'idle') return;
    // Not inside the writer's publish: its own continuations (the action's ack) go out first,
    // then this loop turn fans the append out.
    this.reading = 'scheduled';
    setImmediate(() => {
      if (this.reading === 'scheduled') void this.pump();
    });
  }

  private get closed(): boolean {
    return this.reading === 'closed';
  }

  /** Backlog (from the buffer when it reaches back far enough, else from the store), then state. */
  async start(sub: Subscription): Promise<void> {
    try {
      for (;;) {
        if (sub.closed || this.closed) return;
        if (this.join(sub)) break;
        const before = sub.last;
        const page = await this.read(sub.last + 1);
        for (const e of page) {
          if (sub.closed) return;
          if (e.seq !== sub.last + 1) break;
          sub.pushEntry(new Frame('entry', this.roomId, e.seq, redactEntry(e, sub.viewer), this.ctx.clock()));
        }
        if (sub.last === before) throw new Error(`room ${this.roomId}: no entry ${before + 1} in the store`);
      }
      // While the channel is reading, the state waits for it: it follows whatever that read brings.
      if (this.reading !== 'reading' && this.reading !== 'reading-again')
        this.refreshState(this.classOf(sub));
    } catch (err) {
      sub.fail(err);
    }
  }

  remove(sub: Subscription): void {
    const c = this.classes.get(sub.key);
    if (!c?.subs.delete(sub)) return;
    if (c.subs.size === 0) this.classes.delete(sub.key);
    if (this.classes.size === 0) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.reading = 'closed';
    this.offBus();
    for (const c of this.classes.values()) for (const s of c.subs) s.close();
    this.classes.clear();
    this.opts.onEmpty?.();
  }

  private classOf(sub: Subscription): ViewerClass {
    const c = this.classes.get(sub.key);
    if (!c) throw new Error('subscription is not in this channel');
    return c;
  }

  /**
   * Joins the live feed if the buffer covers what `sub` lacks, and sends that part of the buffer.
   * The first subscriber sets where the channel starts reading (it then reads up to the head).
   */
  private join(sub: Subscription): boolean {
    if (this.last === null) {
      this.last = sub.last;
      sub.live = true;
      void this.pump();
      return true;
    }
    const first = this.last - this.recent.length + 1;
    if (sub.last + 1 < first) return false;
    const c = this.classOf(sub);
    for (const item of this.recent) {
      if (item.entry.seq > sub.last) sub.pushEntry(this.frameFor(item, c.viewer));
    }
    sub.live = true;
    return true;
  }

  private read(from: number): Promise<StoredEntry[]> {
    return this.ctx.runtime.entries(this.roomId, UNREDACTED, from, PAGE);
  }

  /** The frame of `item` that `viewer` may see (built once per entry, not per subscriber). */
  private frameFor(item: Item, viewer: Viewer): Frame {
    if (!item.entry.sealed || canSee(item.entry.vis, viewer)) return item.full;
    item.redacted ??= new Frame(
      'entry',
      this.roomId,
      item.entry.seq,
      redactEntry(item.entry, viewer),
      item.full.ts,
    );
    return item.redacted;
  }

  /**
   * Takes what is new — this node's own commits straight from the runtime, anything else read from
   * the store once — and fans it out. One read at a time; a notification mid-read reruns it.
   */
  private async pump(): Promise<void> {
    if (this.reading === 'reading' || this.reading === 'reading-again') {
      this.reading = 'reading-again';
      return;
    }
    if (this.reading === 'closed') return;
    try {
      do {
        this.reading = 'reading';
        if (!(await this.readToHead())) return;
      } while (this.rereads());
    } catch (err) {
      for (const c of [...this.classes.values()]) for (const s of [...c.subs]) if (s.live) s.fail(err);
      return;
    } finally {
      if (!this.closed) this.reading = 'idle';
    }
    // States still owed: ones the committed room could not give, subscribers that joined meanwhile.
    for (const c of this.classes.values()) this.refreshState(c);
  }

  /** A notification came during the read just done (a method: the read awaits, the field moves). */
  private rereads(): boolean {
    return this.reading === 'reading-again';
  }

  /** Reads and delivers up to the announced head (or the store's); false if the channel closed meanwhile. */
  private async readToHead(): Promise<boolean> {
    for (;;) {
      const from = (this.last ?? -1) + 1;
      const local = this.ctx.runtime.committedSince(this.roomId, from);
      const page = local.length > 0 ? local : await this.read(from);
      if (this.closed) return false;
      const items: Item[] = [];
      for (const e of page) {
        if (e.seq !== (this.last ?? -1) + 1) break;
        items.push(this.remember(e));
      }
      if (items.length > 0) this.deliver(items);
      const caughtUp = local.length > 0 ? (this.last ?? -1) >= this.wanted : page.length < PAGE;
      if (items.length === 0 || caughtUp) return true;
    }
  }

  /**
   * One delivery per subscriber for new entries: the entries and the class's state after them, in
   * one transport batch (one socket write). States come from the committed room, built once per
   * class; the class whose turn it now is goes out as soon as its state is built, before the other
   * classes' states are (its seat answers while the rest are served).
   */
  private deliver(items: Item[]): void {
    const seq = items.at(-1)?.entry.seq ?? -1;
    const later: Array<{ c: ViewerClass; state: Frame | null }> = [];
    for (const c of this.classes.values()) {
      // No state is built for a class whose subscribers all follow entries only.
      let wanted = false;
      for (const s of c.subs) {
        if (s.wantsState) {
          wanted = true;
          break;
        }
      }
      const state = wanted ? this.stateNow(c, seq) : null;
      if (state && isTurn(state)) this.deliverTo(c, items, seq, state);
      else later.push({ c, state });
    }
    for (const { c, state } of later) this.deliverTo(c, items, seq, state);
  }

  /** `items` (ending at `seq`) and `state` to each live subscriber of `c`, one batch each. */
  private deliverTo(c: ViewerClass, items: Item[], seq: number, state: Frame | null): void {
    const frames = items.map((item) => this.frameFor(item, c.viewer));
    for (const s of [...c.subs]) {
      if (!s.live || s.last >= seq) continue;
      if (s.last < items[0]!.entry.seq - 1) {
        // Cannot happen while live (it moves with the channel); if it does, it reads its own way back.
        s.live = false;
        void this.start(s);
        continue;
      }
      s.batch(() => {
        for (const f of frames) s.pushEntry(f);
        if (state && s.needState && state.seq >= s.last) s.pushState(state);
      });
    }
  }

  /** The class's state from the committed room (no queue, no read), cached on the class; null if behind. */
  private stateNow(c: ViewerClass, minSeq: number): Frame | null {
    if (c.state && c.state.seq >= minSeq) return c.state;
    let s: ReturnType<FeedPort['runtime']['stateNow']> = null;
    try {
      s = this.ctx.runtime.stateNow(this.roomId, c.viewer, minSeq);
    } catch {
      return null; // stateFor (refreshState) reports the failure to the class
    }
    if (!s) return null;
    c.state = new Frame('state', this.roomId, s.seq, stateToWire(this.roomId, c.viewer, s), this.ctx.clock());
    return c.state;
  }

  private remember(e: StoredEntry): Item {
    const item: Item = { entry: e, full: new Frame('entry', this.roomId, e.seq, e, this.ctx.clock()) };
    this.recent.push(item);
    if (this.recent.length > this.bufferSize) this.recent.shift();
    this.last = e.seq;
    return item;
  }

  /** Gives the class's cached state to those owed one it is fresh for; fetches a newer one if needed. */
  private refreshState(c: ViewerClass): void {
    if (c.state) this.deliverState(c, c.state, false);
    let owed = false;
    for (const s of c.subs) if (s.live && s.needState) owed = true;
    if (owed) void this.fetchState(c);
  }

  private deliverState(c: ViewerClass, f: Frame, final: boolean): void {
    for (const s of c.subs) {
      // A state older than entries already sent waits for the newer one (unless none is coming).
      if (s.live && s.needState && (final || f.seq >= s.last)) s.pushState(f);
    }
  }

  /** stateFor once per class; calls that arrive while one runs coalesce into one more. */
  private async fetchState(c: ViewerClass): Promise<void> {
    if (c.fetch !== 'idle') {
      c.fetch = 'fetching-again';
      return;
    }
    try {
      do {
        c.fetch = 'fetching';
        // The entries sent came from the store: the state must not be older (another node's append
        // can reach the store before this node's runtime hears of it on the bus).
        if (this.last !== null) this.ctx.runtime.expectSeq(this.roomId, this.last);
        const s = await this.ctx.runtime.stateFor(this.roomId, c.viewer);
        if (this.closed) return;
        const f = new Frame(
          'state',
          this.roomId,
          s.seq,
          stateToWire(this.roomId, c.viewer, s),
          this.ctx.clock(),
        );
        if (!c.state || f.seq >= c.state.seq) c.state = f;
        const last = !fetchesAgain(c);
        this.deliverState(c, f, last);
      } while (fetchesAgain(c) && !this.closed);
    } catch (err) {
      for (const s of [...c.subs]) if (s.live && s.needState) s.fail(err);
    } finally {
      c.fetch = 'idle';
    }
  }
}

/** Asked again during the fetch just done (a function: the fetch awaits, the field moves). */
function fetchesAgain(c: ViewerClass): boolean {
  return c.fetch === 'fetching-again';
}

/** A seat's state that offers it the turn (a turn token): its subscribers hear first. */
function isTurn(f: Frame): boolean {
  const token = (f.body as State).turn_token;
  return token !== null && token !== undefined;
}
