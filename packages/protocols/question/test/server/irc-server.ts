// A real IRC server (Debian's ngircd) for one test, on a free loopback port, and a raw-socket IRC
// client that records every line it receives, byte for byte.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface Ngircd {
  port: number;
  /** `pingTimeout`: seconds of client silence before ngircd PINGs, and then waits as long for the PONG. */
  start(pingTimeout?: number): Promise<void>;
  /** SIGKILL (a crash, not a clean shutdown), waiting for the process to exit. */
  kill(): Promise<void>;
  cleanup(): Promise<void>;
}

/** ngircd in the foreground: loopback only, no PAM, ident or DNS, no system include directory. */
export async function ngircd(): Promise<Ngircd> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-ngircd-'));
  const port = await freePort();
  mkdirSync(join(dir, 'conf.d'));
  const conf = join(dir, 'ngircd.conf');
  const write = (pingTimeout: number) =>
    writeFileSync(
      conf,
      [
        '[Global]',
        'Name = irc.db8.test',
        'Info = db8 test server',
        'AdminInfo1 = db8 tests',
        'AdminInfo2 = loopback only',
        'AdminEMail = nobody@db8.test',
        'Listen = 127.0.0.1',
        `Ports = ${port}`,
        'MotdPhrase = db8 test',
        '[Limits]',
        `PingTimeout = ${pingTimeout}`,
        `PongTimeout = ${pingTimeout}`,
        '[Options]',
        'PAM = no',
        'Ident = no',
        'DNS = no',
        `IncludeDir = ${join(dir, 'conf.d')}`,
        '',
      ].join('\n'),
    );
  let child: ChildProcess | null = null;
  const api: Ngircd = {
    port,
    async start(pingTimeout = 120) {
      write(pingTimeout);
      const c = spawn('ngircd', ['-n', '-f', conf], { stdio: 'ignore' });
      child = c;
      const end = Date.now() + 10_000;
      while (!(await portOpen(port))) {
        if (c.exitCode !== null) throw new Error(`ngircd exited with ${c.exitCode}`);
        if (Date.now() > end) throw new Error('ngircd did not listen');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    async cleanup() {
      await api.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await api.start();
  return api;
}

export interface Line {
  raw: Buffer; // as received, CRLF included
  text: string;
  prefix: string;
  command: string;
  params: string[];
}

/** A plain IRC client: registers, answers PING, records every line. */
export class RawIrc {
  readonly lines: Line[] = [];
  private socket: Socket | null = null;
  private buf = Buffer.alloc(0);

  constructor(
    readonly port: number,
    public nick: string,
  ) {}

  async connect(): Promise<void> {
    const s = connect({ host: '127.0.0.1', port: this.port });
    this.socket = s;
    s.on('error', () => {});
    s.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const i = this.buf.indexOf('\r\n');
        if (i < 0) break;
        const raw = Buffer.from(this.buf.subarray(0, i + 2));
        this.buf = this.buf.subarray(i + 2);
        const text = new TextDecoder('utf-8', { fatal: true }).decode(raw.subarray(0, -2));
        const m = /^(?::(\S+) )?(\S+)((?: (?!:)\S+)*)(?: :(.*))?$/.exec(text);
        const params = (m?.[3] ?? '').split(' ').filter(Boolean);
        if (m?.[4] !== undefined) params.push(m[4]);
        const line = { raw, text, prefix: m?.[1] ?? '', command: m?.[2] ?? '', params };
        this.lines.push(line);
        if (line.command === 'PING') this.send(`PONG :${params[0] ?? ''}`);
      }
    });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('error', reject);
    });
    this.send(`NICK ${this.nick}`);
    this.send(`USER ${this.nick} 0 * :db8 test observer`);
    await this.waitFor('registration', (l) => l.command === '001');
  }

  send(line: string): void {
    this.socket?.write(`${line}\r\n`);
  }

  /** Waits for a line, received from `from` on (an index into `lines`). */
  async waitFor(what: string, pred: (l: Line) => boolean, ms = 20_000, from = 0): Promise<Line> {
    const end = Date.now() + ms;
    for (;;) {
      const hit = this.lines.slice(from).find(pred);
      if (hit) return hit;
      if (Date.now() > end) throw new Error(`IRC: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}
