import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed, type SandboxOptions } from '../../server/sandbox.ts';
import { alive, escapeTests, sacrificialProcess } from './deliberation-sandbox.helpers.ts';

// Every escape the hostile review tried (issue 21), against the sandbox: a unix socket this test
// listens on (path and abstract), a TCP listener, signals to a process of this machine, to the
// parent and to pid 1, another process's environment through /proc, the server's data dir, a disk
// fill and a fork bomb. Each runs twice: as the server runs it (bubblewrap plus Node's permission
// model inside) and with the inner layer off, so the OS sandbox is shown to hold on its own.

const SECRET = randomBytes(16).toString('hex');
let unixServer: Server;
let abstractServer: Server;
let tcpServer: HttpServer;
let socketPath = '';
const abstractName = `db8-escape-${process.pid}`;
let tcpPort = 0;
let reached = 0;
let victim: ChildProcess;
let dataDir = '';

beforeAll(async () => {
  const count = () => {
    reached++;
  };
  socketPath = join(tmpdir(), `db8-escape-${process.pid}.sock`);
  await rm(socketPath, { force: true });
  unixServer = createServer((s) => {
    count();
    s.end('reached');
  });
  await new Promise<void>((r) => unixServer.listen(socketPath, r));
  await chmod(socketPath, 0o777); // anyone may connect: only the sandbox's walls stop it
  abstractServer = createServer((s) => {
    count();
    s.end('reached');
  });
  await new Promise<void>((r) => abstractServer.listen(`\0${abstractName}`, r));
  tcpServer = createHttpServer((_req, res) => {
    count();
    res.end('reached');
  });
  await new Promise<void>((r) => tcpServer.listen(0, '127.0.0.1', r));
  tcpPort = (tcpServer.address() as AddressInfo).port;
  // The server's secret in a process environment and in a data dir anyone may read.
  process.env.DB8_SANDBOX_TEST_SECRET = SECRET;
  victim = await sacrificialProcess({ DB8_SANDBOX_TEST_SECRET: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'db8-fake-data-'));
  await chmod(dataDir, 0o755);
  await writeFile(join(dataDir, 'server.key'), `-----KEY ${SECRET}-----\n`, { mode: 0o644 });
});

afterAll(async () => {
  await new Promise<void>((r) => unixServer.close(() => r()));
  await new Promise<void>((r) => abstractServer.close(() => r()));
  await new Promise<void>((r) => tcpServer.close(() => r()));
  await rm(socketPath, { force: true });
  await rm(dataDir, { recursive: true, force: true });
  victim.kill('SIGKILL');
  delete process.env.DB8_SANDBOX_TEST_SECRET;
});

const connect = (target: string) => `
  const net = await import('node:net');
  await new Promise((ok, fail) => {
    const s = net.connect(${target});
    s.on('connect', () => { s.destroy(); ok(); });
    s.on('error', fail);
  });`;

describe.each([
  { layers: 'bubblewrap + node permissions', opts: {} as SandboxOptions },
  { layers: 'bubblewrap alone', opts: { nodePermissions: false } as SandboxOptions },
])('sandbox escapes ($layers)', ({ opts }) => {
  const tryEscape = (body: string, more: SandboxOptions = {}) =>
    runSandboxed(
      { language: 'javascript', source: 'export {};', tests: escapeTests(body) },
      { ...opts, ...more },
    );

  it('cannot connect to a unix socket of this machine, by path or in the abstract namespace', async () => {
    const before = reached;
    const byPath = await tryEscape(connect(JSON.stringify(socketPath)));
    expect(byPath).toMatchObject({ status: 'ok', total: 1, passed: 0, passRate: 0 });
    expect(byPath.failures[0]!.message).toMatch(/ENOENT|EACCES|ECONNREFUSED/);
    const abstract = await tryEscape(connect(JSON.stringify(`\0${abstractName}`)));
    expect(abstract).toMatchObject({ status: 'ok', total: 1, passed: 0, passRate: 0 });
    expect(reached).toBe(before);
  });

  it('cannot connect to a TCP listener of this machine', async () => {
    const before = reached;
    const r = await tryEscape(connect(`${tcpPort}, '127.0.0.1'`));
    expect(r).toMatchObject({ status: 'ok', total: 1, passed: 0, passRate: 0 });
    expect(r.failures[0]!.message).toMatch(/ENETUNREACH|ECONNREFUSED|EACCES/);
    expect(reached).toBe(before);
  });

  it('cannot signal a process of this machine, its parent or pid 1', async () => {
    const r = await tryEscape(`
      const tried = [];
      for (const pid of [${victim.pid}, 1, process.ppid]) {
        try { process.kill(pid, 'SIGKILL'); tried.push(pid + ': sent'); }
        catch (e) { tried.push(pid + ': ' + e.code); }
      }
      throw new Error(tried.join(', '));`);
    // This process (the sandbox's parent) is still here to read the result, and so is the victim.
    expect(['ok', 'crashed']).toContain(r.status);
    expect(r.passed).toBe(0);
    expect(alive(victim)).toBe(true);
  });

  it("cannot read another process's environment through /proc, nor inherit the server's", async () => {
    const r = await tryEscape(`
      const fs = await import('node:fs');
      const seen = [];
      if (JSON.stringify(process.env).includes(${JSON.stringify(SECRET)})) seen.push('env');
      for (const pid of [${victim.pid}, process.ppid, 1, 'self']) {
        try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes(${JSON.stringify(SECRET)})) seen.push(pid); }
        catch (e) { continue; }
      }
      if (!seen.length) throw new Error('secret not found');`);
    expect(r).toMatchObject({ total: 1, passed: 0, passRate: 0 });
    expect(r.output).not.toContain(SECRET);
  });

  it("cannot read the server's data dir (its key)", async () => {
    const r = await tryEscape(`
      const fs = await import('node:fs');
      const key = fs.readFileSync(${JSON.stringify(join(dataDir, 'server.key'))}, 'utf8');
      if (!key.includes(${JSON.stringify(SECRET)})) throw new Error('not the key');
      throw new Error('escaped: ' + key);`);
    expect(r).toMatchObject({ total: 1, passed: 0, passRate: 0 });
    expect(r.output).not.toContain(SECRET);
  });

  it('cannot fill the disk: its work dir has a cap and nothing else is writable', async () => {
    const r = await tryEscape(
      `
      const fs = await import('node:fs');
      const mib = Buffer.alloc(1024 * 1024, 7);
      let total = 0;
      const stops = [];
      for (const dir of [new URL('.', import.meta.url).pathname, '/', '/dev/shm', '/dev', '/usr', '/tmp']) {
        try {
          for (let f = 0; total < 256 * mib.length; f++) {
            const fd = fs.openSync(dir + '/fill-' + f, 'w');
            try { for (let i = 0; i < 4; i++) { fs.writeSync(fd, mib); total += mib.length; } }
            finally { fs.closeSync(fd); }
          }
        } catch (e) { stops.push(dir + ' ' + e.code); }
      }
      throw new Error('wrote ' + (total >> 20) + ' MiB; ' + stops.join(', '));`,
      { limits: { diskBytes: 16 * 1024 * 1024, timeoutMs: 20_000 } },
    );
    expect(r).toMatchObject({ status: 'ok', total: 1, passed: 0 });
    const msg = r.failures[0]!.message;
    expect(Number(/wrote (\d+) MiB/.exec(msg)?.[1])).toBeLessThanOrEqual(16);
    expect(msg).toMatch(/\/sandbox\/ (ENOSPC|EFBIG|EDQUOT)/);
  }, 60_000);

  it('cannot fork-bomb: child processes are refused or capped', async () => {
    // Bounded even if the cap failed: it stops trying at 64 live children.
    const r = await tryEscape(
      `
      const { spawn } = await import('node:child_process');
      let started = 0, error = null;
      while (started < 64 && !error) {
        await new Promise((done) => {
          try {
            const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
            c.on('spawn', () => { started++; done(); });
            c.on('error', (e) => { error = e; done(); });
          } catch (e) { error = e; done(); }
        });
      }
      if (started < 64) throw new Error('stopped after ' + started + ': ' + (error && (error.code || error.message)));`,
      { limits: { timeoutMs: 20_000 } },
    );
    expect(r).toMatchObject({ total: 1, passed: 0, passRate: 0 });
    expect(r.failures[0]!.message).toMatch(/stopped after \d+: (EAGAIN|ERR_ACCESS_DENIED)/);
  }, 60_000);
});
