import { canonicalize } from '@db8/core';
import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import {
  armAt,
  type Follower,
  JetStreamLog,
  keepLease,
  type LeaseKeeper,
  type StreamMessage,
} from '@db8/server/kit';
import { z } from 'zod';
import type { SwarmOptions } from './options.ts';
import { type FoldOutcome, type Refusal, Replica, TICK_TYPE } from './replica.ts';
import type { ScriptedResponder } from './responder.ts';
import type { AutoSecretary } from './secretary.ts';
import { durableName, roomIdOf, Subjects } from './subjects.ts';

/**
 * The JetStream binding of one node: one stream for every swarm subject, one durable consumer per
 * node and followed scope, each folding its messages into this node's rooms in stream order. It
 * also publishes (message id = event id, so the stream drops duplicates), remembers recent outcomes
 * so a publisher can tell its client what became of its message, and fires each open question's
 * deadline by publishing a tick marker every node folds at the marker's stream time.
 *
 * A db8 cluster (several processes on one store) is one swarm node: only the process holding the
 * node's lease in the store follows the stream and folds (`keepLease`); it announces each outcome on
 * core NATS, so every process answers its own publishers, and every process reads the rooms from the
 * store. Two processes on one durable consumer split its messages and folded them in parallel.
 */

const KEEP_OUTCOMES = 4096;
const KEEP_REFUSALS = 512;
/** While a room stays open past its deadline (a lost or early marker), publish another this often. */
const TICK_RETRY_MS = 2000;

export interface Published {
  streamSeq: number;
  duplicate: boolean;
  /** What this node's fold made of it; null when it did not finish within the wait. */
  outcome: FoldOutcome | null;
}

/** What the REST routes need of a transport: publish and the subjects, counts and refusals. */
export type SwarmTransport = Pick<SwarmBinding, 'publish' | 'subjects' | 'counts' | 'refusals' | 'folding'>;

export class SwarmBinding {
  readonly subjects: Subjects;
  readonly replica: Replica;
  /** Recent refusals, newest last (ops and tests: every refused message leaves a reason here). */
  readonly refusals: Refusal[] = [];
  readonly counts = { opened: 0, applied: 0, expired: 0, refused: 0, ignored: 0 };
  private readonly outcomes = new Map<number, FoldOutcome>();
  private readonly waiters = new Map<number, Array<(o: FoldOutcome) => void>>();
  /** Question → cancels its armed deadline timer. */
  private readonly timers = new Map<string, () => void>();
  private followers: Follower[] = [];
  private listener: Follower | null = null;
  private lease: LeaseKeeper | null = null;
  /** This process holds the node's lease: it folds, ticks and runs the secretary. */
  private leading = false;
  private stopped = false;
  /** Question → cancels its armed secretary look (the `roster-election` policy). */
  private readonly lapses = new Map<string, () => void>();
  /** Set by the module when the federation elects secretaries: looked at when an asker lapses. */
  secretary: AutoSecretary | null = null;
  /** Set by the module with DB8_SWARM_SCRIPTED_RESPONDER=on: answers each question this node opens. */
  responder: ScriptedResponder | null = null;

  private constructor(
    private readonly log: JetStreamLog,
    private readonly runtime: Runtime,
    readonly opts: SwarmOptions,
  ) {
    this.subjects = new Subjects(opts.prefix);
    this.replica = new Replica(runtime, this.subjects, opts);
  }

  static async start(runtime: Runtime, opts: SwarmOptions & { natsUrl: string }): Promise<SwarmBinding> {
    const log = await JetStreamLog.connect(opts.natsUrl);
    const b = new SwarmBinding(log, runtime, opts);
    try {
      await log.ensureStream({
        name: opts.stream,
        subjects: [b.subjects.all()],
        maxAgeMs: opts.maxAgeMs,
        duplicateWindowMs: Math.min(opts.maxAgeMs, 3_600_000),
        replicas: opts.streamReplicas,
      });
      b.listener = log.listen(b.subjects.outcomes(opts.nodeId), (data) => b.heard(data));
      b.lease = await keepLease(runtime.store, `swarm:${opts.stream}:${opts.nodeId}`, {
        ttlMs: opts.leaseMs,
        lead: () => b.lead(),
        follow: () => b.unlead(),
      });
    } catch (err) {
      await b.stop();
      throw err;
    }
    return b;
  }

  /** Whether this process folds for its node (it holds the node's lease). */
  get folding(): boolean {
    return this.leading;
  }

  /** This process took the node's lease: arm the open rooms and follow the stream from where the node was. */
  private async lead(): Promise<void> {
    if (this.stopped) return;
    this.leading = true;
    const open = await this.replica.openRooms();
    for (const r of open) this.arm(r.questionId, r.scope, r.deadline);
    if (this.secretary) for (const r of open) await this.watchLapse(r.questionId);
    for (const scope of this.opts.scopes) {
      this.followers.push(
        await this.log.follow(
          this.opts.stream,
          durableName(this.opts.nodeId, scope),
          this.subjects.filter(scope),
          (m) => this.handle(m),
        ),
      );
    }
  }

  /** The lease is lost or released: stop folding, ticking and looking; another process does it now. */
  private async unlead(): Promise<void> {
    this.leading = false;
    for (const cancel of this.lapses.values()) cancel();
    this.lapses.clear();
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    for (const f of this.followers) await f.stop().catch(() => {});
    this.followers = [];
  }

  /** Publishes one event on `subject` with its event id as the message id. */
  async publish(subject: string, body: unknown, eventId: string, waitMs = 5000): Promise<Published> {
    const ack = await this.log.publish(
      subject,
      new TextEncoder().encode(canonicalize(body as never)),
      eventId,
    );
    if (ack.duplicate)
      return { streamSeq: ack.seq, duplicate: true, outcome: this.outcomes.get(ack.seq) ?? null };
    return { streamSeq: ack.seq, duplicate: false, outcome: await this.outcomeOf(ack.seq, waitMs) };
  }

  /** Waits (at most `ms`) for this node's fold of stream message `seq`. */
  outcomeOf(seq: number, ms: number): Promise<FoldOutcome | null> {
    const known = this.outcomes.get(seq);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        const list = this.waiters.get(seq)?.filter((f) => f !== done);
        if (list?.length) this.waiters.set(seq, list);
        else this.waiters.delete(seq);
        resolve(null);
      }, ms);
      const done = (o: FoldOutcome) => {
        clearTimeout(t);
        resolve(o);
      };
      this.waiters.set(seq, [...(this.waiters.get(seq) ?? []), done]);
    });
  }

  private async handle(m: StreamMessage): Promise<void> {
    let outcome: FoldOutcome;
    try {
      outcome = await this.replica.fold(m);
    } catch (err) {
      outcome = { status: 'ignored', reason: `fold failed: ${(err as Error).message}` };
    }
    if (outcome.status === 'opened') {
      await this.armRoom(outcome.roomId);
      // Not awaited: its publishes wait for this follower, which must first finish this message.
      if (this.responder) void this.responder.answer(outcome.questionId, Date.now()).catch(() => {});
    }
    if (outcome.status === 'opened' || outcome.status === 'applied') void this.watchLapse(outcome.questionId);
    this.settle(m.seq, m.subject, outcome);
    const note: Announced = { seq: m.seq, subject: m.subject, outcome };
    this.log.announce(
      this.subjects.outcomes(this.opts.nodeId),
      new TextEncoder().encode(JSON.stringify(note)),
    );
  }

  /** Another process of this node's cluster folded a message: its room's next read includes it. */
  private heard(data: Uint8Array): void {
    let note: Announced;
    try {
      note = AnnouncedSchema.parse(JSON.parse(new TextDecoder().decode(data))) as Announced;
    } catch {
      return; // not ours, or not well-formed: nothing waits on it
    }
    const o = note.outcome;
    if ('roomId' in o && typeof o.roomId === 'string') this.runtime.expectSeq(o.roomId, o.seq);
    this.settle(note.seq, note.subject, o);
  }

  /** Records what became of stream message `seq` (once) and wakes whoever waits on it. */
  private settle(seq: number, subject: string, outcome: FoldOutcome): void {
    if (this.outcomes.has(seq)) return;
    this.counts[outcome.status]++;
    if (outcome.status === 'refused') {
      this.refusals.push({
        streamSeq: seq,
        subject,
        code: outcome.code,
        stage: outcome.stage,
        message: outcome.message,
      });
      if (this.refusals.length > KEEP_REFUSALS) this.refusals.shift();
    }
    this.outcomes.set(seq, outcome);
    if (this.outcomes.size > KEEP_OUTCOMES) this.outcomes.delete(this.outcomes.keys().next().value as number);
    for (const w of this.waiters.get(seq) ?? []) w(outcome);
    this.waiters.delete(seq);
  }

  private async armRoom(roomId: string): Promise<void> {
    const st = await this.runtime.stateFor(roomId, { kind: 'observer' });
    const q = (st.view as { question: { id: string; scope: string; deadline: number } }).question;
    this.arm(q.id, q.scope, q.deadline);
  }

  /**
   * At the deadline (by this node's clock) publish the tick marker; every node folds it in order.
   * A deadline weeks away is armed in steps (`armAt`): one setTimeout cannot wait past 24.8 days.
   */
  private arm(questionId: string, scope: string, deadline: number, attempt = 0): void {
    if (this.stopped || !this.leading) return;
    this.timers.get(questionId)?.();
    const at = attempt === 0 ? deadline : Math.max(deadline, Date.now()) + TICK_RETRY_MS;
    const cancel = armAt(
      at,
      () => {
        this.timers.delete(questionId);
        void this.fire(questionId, scope, deadline, attempt);
      },
      Date.now,
    );
    this.timers.set(questionId, cancel);
  }

  private async fire(questionId: string, scope: string, deadline: number, attempt: number): Promise<void> {
    if (this.stopped || !this.leading) return;
    const room = await this.runtime.store.rooms.get(roomIdOf(questionId)).catch(() => null);
    if (room?.status !== 'open') return;
    const marker = { type: TICK_TYPE, 'question/id': questionId };
    // Every node publishes the same id at the deadline: the stream keeps one.
    const id = `tick:${questionId}:${attempt}`;
    await this.log
      .publish(this.subjects.room(questionId, scope), new TextEncoder().encode(canonicalize(marker)), id)
      .catch(() => {});
    this.arm(questionId, scope, deadline, attempt + 1);
  }

  /** Starts the secretary's looks for the rooms already open (a restart: no new input may come). */
  async watchOpenRooms(secretary: AutoSecretary): Promise<void> {
    this.secretary = secretary;
    if (!this.leading) return; // the process that takes the lease looks (lead)
    for (const r of await this.replica.openRooms()) await this.watchLapse(r.questionId);
  }

  /**
   * Each input can move the asker's lapse: re-arm one look at the new instant. The look runs the
   * election; the elected node takes over, summarises and closes (`AutoSecretary`); a look that is
   * early or whose publish was refused looks again in a moment, until the room has a secretary.
   */
  private async watchLapse(questionId: string, retryAt?: number): Promise<void> {
    const sec = this.secretary;
    if (!sec || this.stopped || !this.leading) return;
    const due = await sec.dueAt(questionId).catch(() => null);
    this.lapses.get(questionId)?.();
    this.lapses.delete(questionId);
    if (due === null) return;
    const cancel = armAt(
      Math.max(due, retryAt ?? 0),
      () => {
        this.lapses.delete(questionId);
        void sec
          .step(questionId, Date.now())
          .catch(() => 'refused' as const)
          .then((step) => {
            if (step === 'not-due' || step === 'refused')
              void this.watchLapse(questionId, Date.now() + TICK_RETRY_MS);
          });
      },
      Date.now,
    );
    this.lapses.set(questionId, cancel);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.lease?.stop();
    await this.unlead();
    await this.listener?.stop().catch(() => {});
    await this.log.close().catch(() => {});
  }
}

/** A fold outcome as the folding process announces it to the others of its cluster. */
const AnnouncedSchema = z.object({
  seq: z.number().int().nonnegative(),
  subject: z.string(),
  outcome: z.looseObject({
    status: z.enum(['opened', 'applied', 'expired', 'refused', 'ignored']),
  }),
});
interface Announced {
  seq: number;
  subject: string;
  outcome: FoldOutcome;
}
