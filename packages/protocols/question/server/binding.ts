import { canonicalize } from '@db8/core';
import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import { armAt, type Follower, JetStreamLog, type StreamMessage } from '@db8/server/kit';
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
export type SwarmTransport = Pick<SwarmBinding, 'publish' | 'subjects' | 'counts' | 'refusals'>;

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
      for (const r of await b.replica.openRooms()) b.arm(r.questionId, r.scope, r.deadline);
      for (const scope of opts.scopes) {
        b.followers.push(
          await log.follow(opts.stream, durableName(opts.nodeId, scope), b.subjects.filter(scope), (m) =>
            b.handle(m),
          ),
        );
      }
    } catch (err) {
      await b.stop();
      throw err;
    }
    return b;
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
    this.counts[outcome.status]++;
    if (outcome.status === 'refused') {
      this.refusals.push({
        streamSeq: m.seq,
        subject: m.subject,
        code: outcome.code,
        stage: outcome.stage,
        message: outcome.message,
      });
      if (this.refusals.length > KEEP_REFUSALS) this.refusals.shift();
    }
    if (outcome.status === 'opened') {
      await this.armRoom(outcome.roomId);
      // Not awaited: its publishes wait for this follower, which must first finish this message.
      if (this.responder) void this.responder.answer(outcome.questionId, Date.now()).catch(() => {});
    }
    if (outcome.status === 'opened' || outcome.status === 'applied') void this.watchLapse(outcome.questionId);
    this.outcomes.set(m.seq, outcome);
    if (this.outcomes.size > KEEP_OUTCOMES) this.outcomes.delete(this.outcomes.keys().next().value as number);
    for (const w of this.waiters.get(m.seq) ?? []) w(outcome);
    this.waiters.delete(m.seq);
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
    if (this.stopped) return;
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
    if (this.stopped) return;
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
    for (const r of await this.replica.openRooms()) await this.watchLapse(r.questionId);
  }

  /**
   * Each input can move the asker's lapse: re-arm one look at the new instant. The look runs the
   * election; the elected node takes over, summarises and closes (`AutoSecretary`); a look that is
   * early or whose publish was refused looks again in a moment, until the room has a secretary.
   */
  private async watchLapse(questionId: string, retryAt?: number): Promise<void> {
    const sec = this.secretary;
    if (!sec || this.stopped) return;
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
    for (const cancel of this.lapses.values()) cancel();
    this.lapses.clear();
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    for (const f of this.followers) await f.stop().catch(() => {});
    this.followers = [];
    await this.log.close().catch(() => {});
  }
}
