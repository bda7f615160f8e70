// Shared by the durability suites: real server processes (fixtures/durability-node.ts) that can be
// killed with SIGKILL, and a load of bids with client nonces whose acknowledgements are recorded.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Db8Client, Db8Error, Db8Socket } from '@db8/sdk';
import { prebuiltScript } from '../../../test/cli-bundle.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../../..');
const NODE_SCRIPT = join(here, 'fixtures/durability-node.ts');
const live = new Set<ChildProcess>();

export interface ServerProc {
  proc: ChildProcess;
  /** The address it listens on (http://127.0.0.1:<port>). */
  url: string;
  adminLink: string;
  stderr: string[];
  exited: Promise<void>;
}

let bundled: Promise<string> | undefined;

/**
 * Start one server with exactly `env` (plus PATH/HOME). It runs the fixture bundled with esbuild
 * (test/cli-bundle.ts, as the fast suite runs the CLI): plain JavaScript halves the CPU of each of
 * the suites' many starts. Either way the server is this very process, so SIGKILL hits it (the tsx
 * CLI would run it in a child that survives a SIGKILL of the wrapper).
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProc> {
  bundled ??= prebuiltScript(NODE_SCRIPT);
  const entry = await bundled;
  const base = Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])),
  );
  const proc = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: { ...base, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  const stderr: string[] = [];
  proc.stderr!.on('data', (d) => stderr.push(String(d)));
  const exited = new Promise<void>((r) =>
    proc.once('exit', () => {
      live.delete(proc);
      r();
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start within 60 s: ${stderr.join('')}`));
    }, 60_000);
    proc.stdout!.on('data', (d) => {
      out += String(d);
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve({ proc, url: m[1]!, adminLink: m[2]!, stderr, exited });
      }
    });
    void exited.then(() => {
      clearTimeout(t);
      reject(new Error(`server exited before READY (${proc.exitCode}): ${stderr.join('')}`));
    });
  });
}

/** kill -9, and wait until the process is gone. */
export async function killServer(s: ServerProc): Promise<void> {
  if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  await s.exited;
}

/** A clean stop (SIGTERM: the server closes its store), SIGKILL if it hangs. */
export async function stopServer(s: ServerProc | undefined): Promise<void> {
  if (!s || s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  s.proc.kill('SIGTERM');
  const t = setTimeout(() => s.proc.kill('SIGKILL'), 10_000);
  await s.exited;
  clearTimeout(t);
}

/** For afterAll: every server process still running, SIGKILLed and awaited. */
export async function killAllServers(): Promise<void> {
  const procs = [...live];
  await Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((r) => {
          if (p.exitCode !== null || p.signalCode !== null) return r();
          p.once('exit', () => r());
          p.kill('SIGKILL');
        }),
    ),
  );
}

export async function adminToken(s: ServerProc): Promise<string> {
  const token = new URL(s.adminLink).hash.replace('#token=', '');
  return (await new Db8Client({ baseUrl: s.url }).adminLogin(token)).token;
}

/** A sealed-bid room that stays in bidding: `bidders` seats, the last one never bids. */
export async function biddingRoom(url: string, admin: string, bidders: number, windowMs = 600_000) {
  const room = await new Db8Client({ baseUrl: url, token: admin }).createRoom({
    protocol: 'sealed-bid',
    config: {
      item: 'durability',
      bidders,
      reservePrice: 1,
      biddingWindowMs: windowMs,
      revealWindowMs: 600_000,
      rule: 'first-price',
    },
  });
  return room.room_id;
}

export interface Seat {
  room: string;
  seat: string;
  /** Session token for that seat (a JWT under the server key: valid on every restart and node). */
  token: string;
}

/** One agent per seat (separate principals, as the seat rules want). */
export async function takeSeats(url: string, room: string, seats: string[]): Promise<Seat[]> {
  const c = new Db8Client({ baseUrl: url });
  const out: Seat[] = [];
  for (const seat of seats) {
    const agent = await c.registerAgent({ name: `dur-${seat}` });
    const joined = await c.withToken(agent.api_key).join(room, { seat });
    out.push({ room, seat, token: joined.session_token });
  }
  return out;
}

export interface Acked {
  room: string;
  seat: string;
  nonce: string;
  amount: number;
  seq: number;
  /** Load phase (one per server incarnation) in which the ack arrived. */
  phase: number;
}

/** Failures a client retries with the same nonce: the link, the server being away, back-pressure. */
const TRANSIENT = new Set([
  'CLOSED',
  'CONNECT_FAILED',
  'TIMEOUT',
  'RATE_LIMITED',
  'CONFLICT_RETRY_EXHAUSTED',
]);

/**
 * Bids over WebSockets, one in flight per seat, each with a client nonce and a unique amount. A
 * bid whose link dies before its ack is sent again, same nonce, once a server answers: that is the
 * retry every client does after a crash, and the log must then hold it once.
 */
export class Load {
  readonly acked: Acked[] = [];
  /** Bids that were on the wire when their link died (outcome unknown until resent). */
  readonly resent: Array<{ room: string; nonce: string; amount: number }> = [];
  /** Answers that were neither an ack nor a transient failure: the test expects none. */
  readonly failures: string[] = [];
  rateLimited = 0;
  phase = 0;
  private stopping = false;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => {};
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private runs: Promise<void>[] = [];

  /** `urlOf(i)` is where seat i sends now (the test re-routes it after a kill). */
  constructor(
    private readonly seats: Seat[],
    public urlOf: (i: number) => string,
  ) {}

  start(): void {
    this.runs = this.seats.map((s, i) => this.run(s, i));
  }

  /** Hold reconnects (the server is down) until `resume`. */
  pause(): void {
    this.gate = new Promise((r) => {
      this.open = r;
    });
  }

  resume(): void {
    this.open();
  }

  /** Resolves once `n` more acks arrived in the current phase (bounded by the caller's timeout). */
  acksInPhase(n: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count: n, resolve });
      this.notify();
    });
  }

  nextPhase(): void {
    this.phase++;
  }

  /** Let every seat finish its bid in flight, then stop. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.resume();
    await Promise.all(this.runs);
  }

  private notify(): void {
    const inPhase = this.acked.filter((a) => a.phase === this.phase).length;
    const due = this.waiters.filter((w) => inPhase >= w.count);
    this.waiters = this.waiters.filter((w) => inPhase < w.count);
    for (const w of due) w.resolve();
  }

  private async run(s: Seat, i: number): Promise<void> {
    let sock: Db8Socket | null = null;
    let n = 0;
    let bid: { nonce: string; amount: number; sent: boolean } | null = null;
    while (!this.stopping || bid) {
      bid ??= { nonce: `n-${i}-${n}`, amount: (i + 1) * 1_000_000 + n++, sent: false };
      const b = bid;
      try {
        sock ??= await Db8Socket.connect({ url: wsUrl(this.urlOf(i)), token: s.token, timeoutMs: 15_000 });
        b.sent = true;
        const ack = await sock.act(s.room, {
          seat: s.seat,
          action: { type: 'bid', amount: b.amount },
          client_nonce: b.nonce,
        });
        const { room, seat } = s;
        this.acked.push({ room, seat, nonce: b.nonce, amount: b.amount, seq: ack.seq, phase: this.phase });
        bid = null;
        this.notify();
      } catch (e) {
        const code = e instanceof Db8Error ? e.code : 'CONNECT_FAILED';
        if (!TRANSIENT.has(code)) {
          this.failures.push(`${s.seat} ${b.nonce}: ${code} ${(e as Error).message}`);
          bid = null;
          if (this.failures.length > 20) return;
          continue;
        }
        if (code === 'RATE_LIMITED') {
          this.rateLimited++;
          const after = (e as Db8Error).details as { retry_after_ms?: number } | undefined;
          await sleep(Math.min(after?.retry_after_ms ?? 50, 1000));
          continue;
        }
        if (b.sent && (code === 'CLOSED' || code === 'TIMEOUT')) {
          this.resent.push({ room: s.room, nonce: b.nonce, amount: b.amount });
          b.sent = false;
        }
        sock?.close();
        sock = null;
        await this.gate;
        await sleep(50);
      }
    }
    sock?.close();
  }
}

export function wsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/v1/ws`;
}

/** `p`, or a rejection naming `what` after `ms` (a bound, not an assertion on speed). */
export async function within<T>(ms: number, what: () => string, p: Promise<T>): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what()}`)), ms);
  });
  try {
    return await Promise.race([p, bound]);
  } finally {
    clearTimeout(t);
  }
}
