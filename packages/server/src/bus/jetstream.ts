import type {
  ConnectionOptions,
  ConsumerMessages,
  JetStreamClient,
  JetStreamManager,
  NatsConnection,
} from 'nats';
import { loadNats, type NatsModule, natsServers } from './nats-client.ts';

// The NATS client (~0.5 MB) loads when a log connects, not with every process that imports the server.
type Nats = NatsModule;

/**
 * A JetStream stream used as an ordered, replayable log (the core bus, bus/nats.ts, is fire-and-forget
 * fan-out). Generic: a stream, publishes deduplicated by message id, and durable consumers that
 * hand messages to one handler at a time, in stream order, acking each once it has been handled.
 */

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** A backstop: messages older than this are dropped by the server. */
  maxAgeMs: number;
  /** Publishes with an already-seen message id within this window are dropped (default 2 min, ≤ maxAgeMs). */
  duplicateWindowMs?: number;
  /** Copies the cluster keeps of each message (default 1; more needs a clustered JetStream). */
  replicas?: number;
}

export interface StreamMessage {
  subject: string;
  data: Uint8Array;
  /** Stream sequence: the one order every consumer sees. */
  seq: number;
  /** When the server stored it (unix ms): the same instant for every consumer. */
  ts: number;
}

export interface PublishAck {
  seq: number;
  /** True when the stream already held this message id (nothing new was stored). */
  duplicate: boolean;
}

export interface Follower {
  stop(): Promise<void>;
}

export class JetStreamLog {
  private readonly followers = new Set<ConsumerMessages>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly nats: Nats,
  ) {}

  /** `servers`: one URL, a comma-separated list or an array (a NATS cluster, `natsServers`). */
  static async connect(
    servers: string | string[],
    opts: Partial<ConnectionOptions> = {},
  ): Promise<JetStreamLog> {
    const nats = await loadNats();
    const nc = await nats.connect({
      servers: natsServers(servers),
      name: 'db8-jetstream',
      maxReconnectAttempts: -1,
      ...opts,
    });
    try {
      const jsm = await nc.jetstreamManager();
      return new JetStreamLog(nc, jsm, nc.jetstream(), nats);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** Creates the stream, or updates an existing one to these subjects and limits. */
  async ensureStream(spec: StreamSpec): Promise<void> {
    const cfg = {
      name: spec.name,
      subjects: spec.subjects,
      max_age: this.nats.nanos(spec.maxAgeMs),
      duplicate_window: this.nats.nanos(Math.min(spec.duplicateWindowMs ?? 120_000, spec.maxAgeMs)),
      num_replicas: spec.replicas ?? 1,
    };
    if (!(await this.hasStream(spec.name))) {
      try {
        await this.jsm.streams.add(cfg);
        return;
      } catch (err) {
        // Two processes of one node start together: both found no stream, the other one's add won,
        // and ours fails ("subjects overlap", err_code 10065). The stream is there now: update it.
        if (!(await this.hasStream(spec.name))) throw err;
      }
    }
    await this.jsm.streams.update(spec.name, cfg);
  }

  private async hasStream(name: string): Promise<boolean> {
    try {
      await this.jsm.streams.info(name);
      return true;
    } catch {
      return false;
    }
  }

  async deleteStream(name: string): Promise<void> {
    await this.jsm.streams.delete(name);
  }

  async publish(subject: string, data: Uint8Array, msgId: string): Promise<PublishAck> {
    const ack = await this.js.publish(subject, data, { msgID: msgId });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /**
   * Follows `filter` with the durable consumer `durable` (created on first use, from the stream's
   * first message, so a late joiner replays everything still held). `handle` runs for one message at
   * a time; a message is acked once `handle` settles, so a crash replays at most the one in hand.
   */
  async follow(
    stream: string,
    durable: string,
    filter: string,
    handle: (m: StreamMessage) => Promise<void>,
  ): Promise<Follower> {
    try {
      await this.jsm.consumers.info(stream, durable);
    } catch {
      await this.jsm.consumers.add(stream, {
        durable_name: durable,
        filter_subject: filter,
        ack_policy: this.nats.AckPolicy.Explicit,
        deliver_policy: this.nats.DeliverPolicy.All,
      });
    }
    const consumer = await this.js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 256 });
    this.followers.add(messages);
    const done = (async () => {
      for await (const m of messages) {
        try {
          await handle({
            subject: m.subject,
            data: m.data,
            seq: m.seq,
            ts: Math.floor(m.info.timestampNanos / 1_000_000),
          });
        } catch {
          // The handler records its own failures; one bad message must not stop the log.
        }
        m.ack();
      }
    })();
    return {
      stop: async () => {
        this.followers.delete(messages);
        await messages.close();
        await done;
      },
    };
  }

  /** Core NATS, not the stream: a fire-and-forget note to whoever listens now (`listen`). */
  announce(subject: string, data: Uint8Array): void {
    this.nc.publish(subject, data);
  }

  /** Hears `announce`s on `subject` from now on (none from before, none replayed). */
  listen(subject: string, handle: (data: Uint8Array) => void): Follower {
    const sub = this.nc.subscribe(subject, {
      callback: (err, m) => {
        if (!err) handle(m.data);
      },
    });
    return {
      stop: async () => {
        sub.unsubscribe();
      },
    };
  }

  async close(): Promise<void> {
    for (const f of [...this.followers]) await f.close().catch(() => {});
    this.followers.clear();
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
