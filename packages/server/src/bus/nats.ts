import { type PublicEntry, PublicEntrySchema } from '@db8/core';
import type { ConnectionOptions, NatsConnection, Subscription } from 'nats';
import { loadNats, natsServers } from './nats-client.ts';
import type { Bus, BusHandler } from './types.ts';

const SUBJECT_TOKEN = /^[A-Za-z0-9_-]+$/;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** NATS subject token for a room id; ids outside the safe alphabet are hex-encoded so '.', '*', '>' never leak. */
export function roomToken(roomId: string): string {
  if (SUBJECT_TOKEN.test(roomId)) return roomId;
  return `x_${Buffer.from(roomId, 'utf8').toString('hex')}`;
}

export function roomSubject(roomId: string | '*'): string {
  return `db8.room.${roomId === '*' ? '*' : roomToken(roomId)}.entries`;
}

interface Channel {
  sub: Subscription;
  handlers: Set<BusHandler>;
}

/**
 * Core NATS pub/sub on `db8.room.<roomId>.entries`. No JetStream: Postgres holds every entry, so a
 * subscriber that misses a message sees a seq gap and reads the store. Own publishes come back
 * through the server like anyone else's, so every node (this one included) sees one delivery path.
 */
export class NatsBus implements Bus {
  private readonly channels = new Map<string, Channel>();
  /** Count of messages that failed to parse (hostile or foreign publishers on our subjects). */
  dropped = 0;

  private constructor(private readonly nc: NatsConnection) {}

  /** `servers`: one URL, a comma-separated list or an array (a NATS cluster, `natsServers`). */
  static async connect(servers: string | string[], opts: Partial<ConnectionOptions> = {}): Promise<NatsBus> {
    const { connect } = await loadNats();
    const nc = await connect({
      servers: natsServers(servers),
      name: 'db8',
      maxReconnectAttempts: -1,
      ...opts,
    });
    return new NatsBus(nc);
  }

  async publish(roomId: string, entry: PublicEntry): Promise<void> {
    this.nc.publish(roomSubject(roomId), enc.encode(JSON.stringify(entry)));
  }

  /** Wait until the server has every message published so far (tests, shutdown). */
  async flush(): Promise<void> {
    await this.nc.flush();
  }

  subscribe(roomId: string | '*', fn: BusHandler): () => void {
    const subject = roomSubject(roomId);
    let ch = this.channels.get(subject);
    if (!ch) {
      const handlers = new Set<BusHandler>();
      const sub = this.nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          const entry = decode(msg.data);
          if (!entry) {
            this.dropped++;
            return;
          }
          for (const h of [...handlers]) {
            try {
              h(entry);
            } catch {
              // isolate subscribers from each other
            }
          }
        },
      });
      ch = { sub, handlers };
      this.channels.set(subject, ch);
    }
    const wrapped: BusHandler = (e) => fn(e);
    ch.handlers.add(wrapped);
    return () => {
      const c = this.channels.get(subject);
      if (!c) return;
      c.handlers.delete(wrapped);
      if (c.handlers.size === 0) {
        c.sub.unsubscribe();
        this.channels.delete(subject);
      }
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}

function decode(data: Uint8Array): PublicEntry | null {
  try {
    const parsed = PublicEntrySchema.safeParse(JSON.parse(dec.decode(data)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
