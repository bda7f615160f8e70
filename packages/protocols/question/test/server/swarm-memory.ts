// An in-process swarm for fast tests: N nodes (own PGlite store, own node key, own app) folding one
// ordered in-memory stream exactly as the JetStream binding does — message ids deduplicated, every
// message folded by every node in stream order at its stream time. No network, no NATS.
import { canonicalize, ed25519 } from '@db8/core';
import { externalClockOf, protocolRegistryOf } from '@db8/server';
import { migrate } from '@db8/server/kit';
import { buildApp } from '@db8/server/src/app.ts';
import { AdminLinks } from '@db8/server/src/auth/admin-link.ts';
import type { StreamMessage } from '@db8/server/src/bus/jetstream.ts';
import { LocalBus } from '@db8/server/src/bus/local.ts';
import { serverKeyFromSeed } from '@db8/server/src/keys/index.ts';
import { Runtime } from '@db8/server/src/runtime/index.ts';
import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import type { FastifyInstance } from 'fastify';
import type { Published, SwarmTransport } from '../../server/binding.ts';
import { questionModule } from '../../server/index.ts';
import type { NodeIdentity } from '../../server/node-sign.ts';
import { type SwarmOptions, swarmOptions } from '../../server/options.ts';
import { type FoldOutcome, type Refusal, Replica } from '../../server/replica.ts';
import { swarmRoutes } from '../../server/routes.ts';
import { Subjects } from '../../server/subjects.ts';

export interface MemoryNode {
  name: string;
  identity: NodeIdentity;
  runtime: Runtime;
  replica: Replica;
  store: Store;
  app: FastifyInstance;
  admin: string;
  refusals: Refusal[];
  close(): Promise<void>;
}

export class MemoryStream {
  readonly messages: StreamMessage[] = [];
  readonly nodes: MemoryNode[] = [];
  /** Node 0's outcomes by status (what a run reached). */
  readonly outcomes: Record<string, number> = {};
  private readonly ids = new Set<string>();
  constructor(
    readonly subjects: Subjects,
    /** The stream's clock (each message's timestamp); never goes back. */
    public clock: () => number,
  ) {}

  /** Appends one message (dropped when its id was seen) and folds it on every node. */
  async append(
    subject: string,
    data: Uint8Array,
    id?: string,
  ): Promise<{ seq: number; outcomes: FoldOutcome[] } | null> {
    if (id !== undefined) {
      if (this.ids.has(id)) return null;
      this.ids.add(id);
    }
    const last = this.messages.at(-1);
    const m: StreamMessage = {
      subject,
      data,
      seq: this.messages.length + 1,
      ts: Math.max(this.clock(), last?.ts ?? 0),
    };
    this.messages.push(m);
    const outcomes: FoldOutcome[] = [];
    for (const n of this.nodes) {
      let o: FoldOutcome;
      try {
        o = await n.replica.fold(m);
      } catch (err) {
        o = { status: 'ignored', reason: `fold failed: ${(err as Error).message}` };
      }
      if (o.status === 'refused') {
        n.refusals.push({ streamSeq: m.seq, subject, code: o.code, stage: o.stage, message: o.message });
      }
      outcomes.push(o);
    }
    const first = outcomes[0];
    if (first) {
      const k = first.status === 'ignored' ? `ignored:${first.reason.slice(0, 80)}` : first.status;
      this.outcomes[k] = (this.outcomes[k] ?? 0) + 1;
    }
    return { seq: m.seq, outcomes };
  }

  /** The transport node `i`'s routes publish through. */
  transport(i: number): SwarmTransport {
    const counts = { opened: 0, applied: 0, expired: 0, refused: 0, ignored: 0 };
    return {
      subjects: this.subjects,
      counts,
      refusals: [],
      folding: true,
      publish: async (subject: string, body: unknown, eventId: string): Promise<Published> => {
        const r = await this.append(subject, new TextEncoder().encode(canonicalize(body as never)), eventId);
        if (!r) return { streamSeq: 0, duplicate: true, outcome: null };
        const outcome = r.outcomes[i] as FoldOutcome;
        counts[outcome.status]++;
        return { streamSeq: r.seq, duplicate: false, outcome };
      },
    } as SwarmTransport;
  }
}

/** `n` nodes on one memory stream. `env`: extra DB8_SWARM_* settings every node runs (or node `i` runs). */
export async function memorySwarm(
  n: number,
  clock: () => number,
  env: Record<string, string> | ((i: number) => Record<string, string>) = {},
): Promise<{ stream: MemoryStream; nodes: MemoryNode[]; opts: SwarmOptions }> {
  const subjects = new Subjects('m.');
  const stream = new MemoryStream(subjects, clock);
  let opts: SwarmOptions | null = null;
  for (let i = 0; i < n; i++) {
    const seed = new Uint8Array(32).fill(100 + i);
    const publicKey = ed25519.publicKeyFromSeed(seed);
    const o = swarmOptions(
      {
        DB8_SWARM_PREFIX: 'm.',
        DB8_SWARM_NODE_ID: `node:m${i}`,
        ...(typeof env === 'function' ? env(i) : env),
      },
      null,
      publicKey,
    );
    opts ??= o;
    const identity: NodeIdentity = { nodeId: o.nodeId, federationId: o.federationId, seed, publicKey };
    const store = await openStore({ memory: true });
    await migrate(store.db, questionModule.migrations ?? []); // the module's tables (startServer applies them)
    const runtime = new Runtime({
      store,
      protocols: protocolRegistryOf(builtinModules),
      externalClock: externalClockOf(builtinModules),
      serverKey: serverKeyFromSeed(new Uint8Array(32).fill(200 + i)),
      clock,
    });
    const adminLinks = new AdminLinks();
    const app = await buildApp({
      runtime,
      store,
      bus: new LocalBus(),
      serverKey: serverKeyFromSeed(new Uint8Array(32).fill(200 + i)),
      adminLinks,
      modules: [questionModule],
      config: { logLevel: 'silent', rateLimit: { max: 1_000_000, windowMs: 60_000 } },
    });
    // The module's routes, over this memory stream instead of a JetStream binding.
    swarmRoutes(app, { runtime, binding: stream.transport(i), opts: o, node: identity });
    await app.ready();
    const token = adminLinks.create(3_600_000);
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { token } });
    const admin = (login.json() as { token: string }).token;
    const node: MemoryNode = {
      name: `m${i}`,
      identity,
      runtime,
      replica: new Replica(runtime, subjects, o),
      store,
      app,
      admin,
      refusals: [],
      async close() {
        await app.close();
        await store.close();
      },
    };
    stream.nodes.push(node);
  }
  return { stream, nodes: stream.nodes, opts: opts as SwarmOptions };
}
