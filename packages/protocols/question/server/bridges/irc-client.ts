import { connect, type Socket } from 'node:net';
import { timerDelay } from '@db8/core';
import { ircLine } from './irc-lines.ts';

/**
 * A small IRC client for the observer bridge, written by hand over node:net. Why not a library:
 * the bridge needs only registration, JOIN/PART/PRIVMSG, PING/PONG and nick fallback, but must
 * control line splitting, the send queue's rate and what is re-sent after a reconnect itself;
 * irc-framework (the maintained one) declares no Node engines, ships no types and pulls browser
 * polyfills (core-js, buffer, stream-browserify, regenerator-runtime) into the server.
 */

export interface IrcClientOptions {
  host: string;
  port: number;
  nick: string;
  password?: string | undefined;
  /** Sustained send rate (lines per second) after a burst; servers penalise faster clients. */
  linesPerSec: number;
  burst: number;
  /** Lines kept while the server is slow or down; beyond it the oldest messages are dropped. */
  maxQueue: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  /** Silence after which we PING the server, and how long its answer may take. */
  idlePingMs: number;
  pongTimeoutMs: number;
  log: (msg: string) => void;
}

export const IRC_DEFAULTS = {
  linesPerSec: 1,
  burst: 4,
  maxQueue: 2000,
  minBackoffMs: 500,
  maxBackoffMs: 30_000,
  idlePingMs: 60_000,
  pongTimeoutMs: 30_000,
} as const;

interface Outgoing {
  kind: 'JOIN' | 'PART' | 'PRIVMSG';
  channel: string;
  line: string;
}

/** One parsed server line (RFC 1459 §2.3.1): prefix, command, params with the trailing one last. */
export function parseLine(raw: string): { prefix: string; command: string; params: string[] } | null {
  let rest = raw;
  let prefix = '';
  if (rest.startsWith(':')) {
    const sp = rest.indexOf(' ');
    if (sp < 0) return null;
    prefix = rest.slice(1, sp);
    rest = rest.slice(sp + 1).trimStart();
  }
  const params: string[] = [];
  let command = '';
  while (rest !== '') {
    if (command !== '' && rest.startsWith(':')) {
      params.push(rest.slice(1));
      break;
    }
    const sp = rest.indexOf(' ');
    const word = sp < 0 ? rest : rest.slice(0, sp);
    rest = sp < 0 ? '' : rest.slice(sp + 1).trimStart();
    if (command === '') command = word.toUpperCase();
    else params.push(word);
  }
  return command ? { prefix, command, params } : null;
}

/** The nick to try after `attempt` refusals: `nick_`, then `nick2`, `nick3`… within 9 characters. */
export function fallbackNick(nick: string, attempt: number): string {
  const suffix = attempt === 1 ? '_' : String(attempt);
  return nick.slice(0, 9 - suffix.length) + suffix;
}

export class IrcClient {
  /** The nick the server accepted (differs from the configured one after a collision). */
  nick: string;
  registered = false;
  /** Times the client has registered (the first connection and every reconnect). */
  registrations = 0;
  dropped = 0;
  private readonly channels = new Set<string>();
  private queue: Outgoing[] = [];
  private socket: Socket | null = null;
  private buffer = Buffer.alloc(0);
  private attempt = 0;
  private nickAttempt = 0;
  private tokens: number;
  private lastRefill = Date.now();
  private drainTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly o: IrcClientOptions) {
    this.nick = o.nick;
    this.tokens = o.burst;
  }

  start(): void {
    this.open();
  }

  join(channel: string): void {
    this.channels.add(channel);
    this.enqueue({ kind: 'JOIN', channel, line: ircLine('JOIN', [channel]) });
  }

  part(channel: string, reason: string): void {
    this.channels.delete(channel);
    this.enqueue({ kind: 'PART', channel, line: ircLine('PART', [channel], reason) });
  }

  /** `text` must already fit one line (irc-lines.ts splits). */
  say(channel: string, text: string): void {
    this.enqueue({ kind: 'PRIVMSG', channel, line: ircLine('PRIVMSG', [channel], text) });
  }

  /** Lines still waiting to be sent. */
  get pending(): number {
    return this.queue.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.drainTimer, this.reconnectTimer, this.idleTimer]) if (t) clearTimeout(t);
    const s = this.socket;
    this.socket = null;
    if (!s || s.destroyed) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        s.destroy();
        resolve();
      }, 1000);
      s.once('close', () => {
        clearTimeout(t);
        resolve();
      });
      if (this.registered) s.end('QUIT :db8 bridge stopping\r\n');
      else s.destroy();
    });
  }

  private enqueue(item: Outgoing): void {
    this.queue.push(item);
    if (this.queue.length > this.o.maxQueue) {
      // Drop the oldest message, never a JOIN or PART (membership must stay right).
      const i = this.queue.findIndex((q) => q.kind === 'PRIVMSG');
      if (i >= 0) {
        this.queue.splice(i, 1);
        this.dropped++;
      }
    }
    this.drain();
  }

  private open(): void {
    if (this.stopped) return;
    this.registered = false;
    this.buffer = Buffer.alloc(0);
    this.nick = this.o.nick;
    this.nickAttempt = 0;
    const s = connect({ host: this.o.host, port: this.o.port });
    this.socket = s;
    s.setNoDelay(true);
    s.on('connect', () => {
      if (this.o.password) this.write(ircLine('PASS', [this.o.password]));
      this.write(ircLine('NICK', [this.nick]));
      this.write(ircLine('USER', [this.o.nick.slice(0, 9), '0', '*'], 'db8 swarm observer bridge'));
      this.alive();
    });
    s.on('data', (d: Buffer) => this.onData(d));
    s.on('error', (err) => this.o.log(`irc: ${err.message}`));
    s.on('close', () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.registered = false;
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.scheduleReconnect();
    });
  }

  /** Exponential backoff with jitter (half to full delay), reset by a successful registration. */
  private scheduleReconnect(): void {
    if (this.stopped) return;
    const base = Math.min(this.o.maxBackoffMs, this.o.minBackoffMs * 2 ** this.attempt);
    const delay = Math.round(base / 2 + (Math.random() * base) / 2);
    this.attempt++;
    this.o.log(`irc: reconnecting in ${delay} ms`);
    this.reconnectTimer = setTimeout(() => this.open(), timerDelay(delay));
  }

  /** Any line from the server proves the link; silence gets a PING, an unanswered one a reconnect. */
  private alive(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.write(ircLine('PING', [], 'db8'));
      this.idleTimer = setTimeout(() => {
        this.o.log('irc: no answer to PING, reconnecting');
        this.socket?.destroy();
      }, timerDelay(this.o.pongTimeoutMs));
    }, timerDelay(this.o.idlePingMs));
  }

  private write(line: string): void {
    const s = this.socket;
    if (s && !s.destroyed && s.writable) s.write(`${line}\r\n`);
  }

  private onData(d: Buffer): void {
    this.alive();
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const i = this.buffer.indexOf(0x0a);
      if (i < 0) break;
      const raw = this.buffer.subarray(0, i).toString('utf8').replace(/\r$/, '');
      this.buffer = this.buffer.subarray(i + 1);
      const msg = parseLine(raw);
      if (msg) this.onMessage(msg);
    }
    // A server never sends a line this long; drop the garbage rather than grow without bound.
    if (this.buffer.length > 64 * 1024) this.buffer = Buffer.alloc(0);
  }

  private onMessage(m: { prefix: string; command: string; params: string[] }): void {
    switch (m.command) {
      case 'PING':
        // Answered at once, ahead of the queue: a PONG held behind a rate limit times us out.
        this.write(ircLine('PONG', [], m.params[0] ?? ''));
        return;
      case '001':
        this.registered = true;
        this.registrations++;
        this.attempt = 0;
        this.nick = m.params[0] ?? this.nick;
        this.onRegistered();
        return;
      case '432': // erroneous nickname
      case '433': // nickname in use
      case '436': // nick collision
      case '437': // temporarily unavailable
        if (this.registered) return;
        this.nickAttempt++;
        this.nick = fallbackNick(this.o.nick, this.nickAttempt);
        this.o.log(`irc: nick refused (${m.command}), trying ${this.nick}`);
        this.write(ircLine('NICK', [this.nick]));
        return;
      case 'ERROR':
        this.o.log(`irc: server closes the link: ${m.params.at(-1) ?? ''}`);
        return;
      case 'KICK':
        // A channel operator's decision stands: no rejoin until the room's channel is joined anew.
        if (m.params[1] === this.nick && m.params[0]) this.channels.delete(m.params[0].toLowerCase());
        return;
      case '403':
      case '404':
      case '405':
      case '471':
      case '473':
      case '474':
      case '475':
        this.o.log(`irc: ${m.command} ${m.params.slice(1).join(' ')}`);
        return;
    }
  }

  /**
   * After (re)registration: JOIN every wanted channel, and every channel that still has queued lines
   * (its room may have closed while we were away: its messages, close and PART are still queued),
   * ahead of the rest of the queue. A fresh burst allowance starts with the connection.
   */
  private onRegistered(): void {
    const again = new Set(this.channels);
    for (const q of this.queue) if (q.kind === 'PRIVMSG') again.add(q.channel);
    const rest = this.queue.filter((q) => q.kind !== 'JOIN');
    this.queue = [
      ...[...again].map((channel) => ({ kind: 'JOIN' as const, channel, line: ircLine('JOIN', [channel]) })),
      ...rest,
    ];
    this.tokens = this.o.burst;
    this.lastRefill = Date.now();
    this.drain();
  }

  /** Sends while tokens last (a token bucket: `burst` lines, then `linesPerSec`). */
  private drain(): void {
    if (this.drainTimer || !this.registered || this.stopped || !this.socket?.writable) return;
    const now = Date.now();
    this.tokens = Math.min(this.o.burst, this.tokens + ((now - this.lastRefill) / 1000) * this.o.linesPerSec);
    this.lastRefill = now;
    while (this.queue.length > 0 && this.tokens >= 1) {
      const item = this.queue.shift() as Outgoing;
      this.write(item.line);
      this.tokens -= 1;
    }
    if (this.queue.length === 0) return;
    const wait = Math.ceil(((1 - this.tokens) / this.o.linesPerSec) * 1000);
    this.drainTimer = setTimeout(() => {
      this.drainTimer = null;
      this.drain();
    }, timerDelay(wait));
  }
}
