import type { Bus, ModuleRuntime as Runtime } from '@db8/server/kit';
import { runtimeError } from '@db8/server/kit';
import { z } from 'zod';
import type { BridgeEvent, QuestionBridge } from './bridge.ts';
import { IRC_DEFAULTS, IrcClient, type IrcClientOptions } from './irc-client.ts';
import { channelOf, linesOf, textBudget, wrap } from './irc-lines.ts';
import { type RoomWatch, watchQuestionRooms } from './watch.ts';

/**
 * The IRC observer bridge: every answer room this node holds gets a channel (channelOf), which the
 * bridge joins when the room opens, relays each message (kind, speaker, origin class, gateway),
 * summary and the close to, and parts when the room closes or expires. Observer only: what people
 * say in the channel is never taken into the room (a room input must be signed by a participant).
 */

/** RFC 2812 nick: a letter or special first, then letters, digits, specials and `-`. */
const NICK = /^[A-Za-z[\]\\`_^{|}][A-Za-z0-9[\]\\`_^{|}-]{0,29}$/;

export const IrcEnvSchema = z.object({
  /** `irc://host:port` (port 6667 by default). TLS (`ircs://`) is not supported yet. */
  DB8_SWARM_IRC: z
    .string()
    .url()
    .transform((s) => new URL(s))
    .refine((u) => u.protocol === 'irc:', 'irc://host:port (ircs:// is not supported)')
    .refine((u) => u.hostname !== '' && (u.pathname === '' || u.pathname === '/'), 'irc://host:port, no path')
    .optional(),
  DB8_SWARM_IRC_NICK: z.string().regex(NICK, 'an IRC nick').default('db8swarm'),
  /** The server's connection password (PASS), if it has one. */
  DB8_SWARM_IRC_PASSWORD: z.string().min(1).max(200).optional(),
  /** Lines per second after a burst of four: the send queue's rate (flood control). */
  DB8_SWARM_IRC_RATE: z.coerce.number().min(0.1).max(20).default(IRC_DEFAULTS.linesPerSec),
  /**
   * `all` (default): every answer room this node holds; `asked`: only the questions this node asked,
   * so several nodes of a federation on one IRC network do not each relay the same room.
   */
  DB8_SWARM_IRC_RELAY: z.enum(['all', 'asked']).default('all'),
});

export type IrcBridgeOptions = Omit<IrcClientOptions, 'log'> & { relay: 'all' | 'asked' };

/** The bridge's settings from the module's environment; null when DB8_SWARM_IRC is not set. */
export function ircOptions(env: Readonly<Record<string, string | undefined>>): IrcBridgeOptions | null {
  const picked = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('DB8_SWARM_IRC')));
  const r = IrcEnvSchema.safeParse(picked);
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw runtimeError('BAD_CONFIG', `swarm IRC bridge settings: ${where}`);
  }
  const e = r.data;
  if (!e.DB8_SWARM_IRC) return null;
  return {
    ...IRC_DEFAULTS,
    host: e.DB8_SWARM_IRC.hostname.replace(/^\[|\]$/g, ''),
    port: e.DB8_SWARM_IRC.port ? Number(e.DB8_SWARM_IRC.port) : 6667,
    nick: e.DB8_SWARM_IRC_NICK,
    password: e.DB8_SWARM_IRC_PASSWORD,
    linesPerSec: e.DB8_SWARM_IRC_RATE,
    relay: e.DB8_SWARM_IRC_RELAY,
  };
}

export class IrcBridge implements QuestionBridge {
  readonly name = 'irc';
  readonly client: IrcClient;
  /** Rooms this bridge relays (by room id), chosen when each opens. */
  private readonly relayed = new Set<string>();

  constructor(
    private readonly opts: IrcBridgeOptions,
    private readonly nodeId: string,
    log: (msg: string) => void,
  ) {
    this.client = new IrcClient({ ...opts, log });
  }

  start(): void {
    this.client.start();
  }

  deliver(e: BridgeEvent): void {
    if (e.kind === 'open') {
      if (this.opts.relay === 'asked' && e.question.askerNode !== this.nodeId) return;
      this.relayed.add(e.roomId);
    } else if (!this.relayed.has(e.roomId)) return;
    if (e.kind === 'close') this.relayed.delete(e.roomId);
    const channel = channelOf(e.kind === 'open' ? e.question.id : e.questionId);
    if (e.kind === 'open') this.client.join(channel);
    const budget = textBudget(channel);
    for (const line of linesOf(e)) for (const piece of wrap(line, budget)) this.client.say(channel, piece);
    if (e.kind === 'close') this.client.part(channel, `room ${e.status}`);
  }

  async stop(): Promise<void> {
    await this.client.stop();
  }
}

export interface RunningIrcBridge {
  bridge: IrcBridge;
  watch: RoomWatch;
  stop(): Promise<void>;
}

/** Starts the bridge when configured (DB8_SWARM_IRC), watching this node's question rooms. */
export function startIrcBridge(
  runtime: Runtime,
  bus: Bus,
  env: Readonly<Record<string, string | undefined>>,
  nodeId: string,
  log: (msg: string) => void,
): RunningIrcBridge | null {
  const opts = ircOptions(env);
  if (!opts) return null;
  const bridge = new IrcBridge(opts, nodeId, log);
  bridge.start();
  const watch = watchQuestionRooms(runtime, bus, (e) => bridge.deliver(e));
  return {
    bridge,
    watch,
    async stop() {
      watch.stop();
      await bridge.stop();
    },
  };
}
