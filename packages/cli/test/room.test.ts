// The CLI room client, spawned as users run it, against a real server started here (PGlite in a temp
// dir, ephemeral port): an admin creates a sealed-bid auction, two CLI players (one by API key, one
// by SSH key and then a room certificate) join, bid and watch it to the close; plus the failures.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', 'app', 'bin', 'db8.js');
const dir = mkdtempSync(join(tmpdir(), 'db8-cli-room-'));
let server: RunningServer;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Spawn `db8 …` with its own DB8_HOME (async: the server runs in this process). */
function db8(home: string, args: string[], input?: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DB8_HOME: join(dir, home) };
  delete env.DB8_URL;
  delete env.DATABASE_URL;
  const p = spawn(process.execPath, [BIN, ...args], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => {
    stdout += String(d);
  });
  p.stderr.on('data', (d) => {
    stderr += String(d);
  });
  p.stdin.end(input ?? '');
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`db8 ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, 120_000);
    p.on('exit', (status) => {
      clearTimeout(t);
      resolve({ status, stdout, stderr });
    });
  });
}

async function ok(home: string, args: string[], input?: string): Promise<string> {
  const r = await db8(home, args, input);
  expect(r.status, `db8 ${args.join(' ')}: ${r.stderr}`).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
}

/** A port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  const srv = createServer();
  return new Promise((resolve) => {
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: join(dir, 'data'),
    env: false,
    adminLink: true,
    logLevel: 'silent',
    print: () => {},
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const AUCTION = {
  item: 'lamp',
  bidders: 2,
  reservePrice: 10,
  biddingWindowMs: 120_000,
  // Nobody holds the auctioneer seat: silence confirms the sale this long after the reveal.
  revealWindowMs: 1500,
  rule: 'second-price',
};

describe('db8 room client against a real server', { timeout: 300_000 }, () => {
  it('two CLI players play a sealed-bid auction to the close', async () => {
    const url = server.url;
    // admin: the one-time link, then the room
    expect(await ok('admin', ['login', '--link', server.adminLink!])).toMatch(
      /^logged in to .* as admin \(admin\)/,
    );
    const cfg = join(dir, 'auction.json');
    writeFileSync(cfg, JSON.stringify(AUCTION));
    const room = JSON.parse(
      await ok('admin', [
        'room',
        'create',
        '--protocol',
        'sealed-bid',
        '--config',
        cfg,
        '--title',
        'Lamp',
        '--json',
      ]),
    );
    const R: string = room.room_id;
    expect(room.seats.map((s: { seat: string }) => s.seat)).toEqual(['bidder_1', 'bidder_2', 'auctioneer']);
    expect(await ok('admin', ['room', 'list'])).toMatch(
      new RegExp(`^${R}\\s+sealed-bid\\s+open\\s+seq 0\\s+seats 0/3\\s+Lamp$`, 'm'),
    );

    // player 1: API key (read from stdin), seat bidder_1
    const p1 = JSON.parse(await ok('p1', ['agent', 'register', '--name', 'p1', '--url', url, '--json']));
    expect(p1.api_key).toMatch(/^db8k_/);
    expect(await ok('p1', ['login', '--api-key', '-', '--url', url], `${p1.api_key}\n`)).toContain(
      `as ${p1.agent_id} (agent)`,
    );
    const sessionFile = join(dir, 'p1', 'session.json');
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'p1')).mode & 0o077).toBe(0);
    expect(await ok('p1', ['room', 'join', R, '--seat', 'bidder_1'])).toContain(`joined ${R} as bidder_1`);

    // player 2: registers an SSH key, logs in with it, joins, gets a room certificate for the seat,
    // and then plays from a fresh home logged in by that certificate alone.
    const key = join(dir, 'p2_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    await ok('p2', ['agent', 'register', '--name', 'p2', '--ssh-key', `${key}.pub`, '--url', url]);
    expect(await ok('p2', ['login', '--ssh-key', key, '--url', url])).toMatch(/as agt_\w+ \(agent\)/);
    await ok('p2', ['room', 'join', R, '--seat', 'bidder_2']);
    expect(await ok('p2', ['room', 'cert', R, '--ssh-key', key])).toContain(`bidder_2@${R}`);
    expect(readFileSync(`${key}-cert.pub`, 'utf8')).toMatch(/^ssh-ed25519-cert-v01@openssh\.com /);
    const certLogin = await ok('p2cert', [
      'login',
      '--ssh-key',
      key,
      '--principal',
      `bidder_2@${R}`,
      '--url',
      url,
    ]);
    expect(certLogin).toContain(`seat bidder_2 in ${R}`);

    const status = await ok('p1', ['room', 'status', R]);
    expect(status).toContain('phase bidding');
    expect(status).toContain('you: seat bidder_1');
    expect(status).toMatch(
      /seats: bidder_1 \(bidder, taken\), bidder_2 \(bidder, taken\), auctioneer \(auctioneer, free\)/,
    );

    // watchers: player 1 in text (its seat view), an anonymous observer as JSON lines
    const watch1 = db8('p1', ['watch', R]);
    const watchObs = db8('observer', ['watch', R, '--json', '--url', url]);

    // a bid under the reserve is refused by the protocol: exit 6, nothing written
    const low = await db8('p1', ['act', R, '{"type":"bid","amount":5}']);
    expect(low.status).toBe(6);
    expect(low.stderr).toMatch(/^db8: BELOW_RESERVE: /);
    expect(low.stdout).toBe('');

    expect(await ok('p1', ['act', R, '{"type":"bid","amount":120}'])).toMatch(
      /^ok: bidder_1 acted at seq \d+\n$/,
    );
    expect(await ok('p2cert', ['act', R, '{"type":"bid","amount":90}'])).toMatch(
      /^ok: bidder_2 acted at seq \d+\n$/,
    );

    const [w1, wo] = await Promise.all([watch1, watchObs]);
    expect(w1.status, w1.stderr).toBe(0);
    expect(wo.status, wo.stderr).toBe(0);

    // player 1's text tail: its own sealed bid in clear, banners, the close with the result
    const lines = w1.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^── watching ${R} \\(sealed-bid, "Lamp"\\) from seq 0`));
    expect(
      lines.some((l) =>
        /^#\d+ \S+ action bidder_1 \[sealed, visible to you\] \{"amount":120,"type":"bid"\}$/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => /^#\d+ \S+ action bidder_2 \[sealed [0-9a-f]{12}\]$/.test(l))).toBe(true);
    expect(lines).toContain('── closed');
    expect(lines.some((l) => l.startsWith('── phase reveal'))).toBe(true);
    const result = JSON.parse(lines.at(-1)!.replace(/^── result /, ''));
    expect(result).toMatchObject({ sold: true, winner: 'bidder_1', price: 90, rule: 'second-price' });

    // the observer's JSON lines: every entry once, in order; no sealed payload; closed last
    const events = wo.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const seqs = events.filter((e) => e.event === 'entry').map((e) => e.entry.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i));
    expect(events.filter((e) => e.event === 'entry' && e.entry.sealed !== undefined)).toEqual([]);
    const close = events.find((e) => e.event === 'entry' && e.entry.kind === 'close');
    expect(close.entry.payload.result).toEqual(result);
    expect(events.at(-1)).toMatchObject({ event: 'state', state: { status: 'closed' } });

    expect(await ok('p1', ['room', 'status', R])).toContain('status closed');
    const late = await db8('p1', ['act', R, '{"type":"bid","amount":200}']);
    expect(late.status).toBe(6);
  });

  it("room create --drive hands seats to the server's drivers; a malformed flag is a usage error", async () => {
    // The admin session from the first test.
    const r = JSON.parse(
      await ok(
        'admin',
        [
          'room',
          'create',
          '--protocol',
          'debate',
          '--config',
          '-',
          '--drive',
          'fact_checker=scripted',
          '--drive',
          'judge_1=scripted/any-model',
          '--json',
        ],
        JSON.stringify({ topic: 'Drivers from the CLI', debaters: 2, judges: 1, viewers: 0 }),
      ),
    ) as { room_id: string };
    // The drivers are the room admin's to read (issue 21): the admin's saved session token reads them.
    const drivers = `${server.url}/v1/rooms/${r.room_id}/drivers`;
    expect((await fetch(drivers)).status).toBe(401);
    const saved = JSON.parse(readFileSync(join(dir, 'admin', 'session.json'), 'utf8')) as {
      session: { token: string };
    };
    const d = (await (
      await fetch(drivers, { headers: { authorization: `Bearer ${saved.session.token}` } })
    ).json()) as {
      drivers: Record<string, { provider: string; model?: string }>;
    };
    expect(d.drivers).toMatchObject({
      fact_checker: { provider: 'scripted' },
      judge_1: { provider: 'scripted', model: 'any-model' },
    });
    const bad = await db8('admin', ['room', 'create', '--protocol', 'debate', '--drive', 'judge_1']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('db8: --drive judge_1: expected seat=provider or seat=provider/model\n');
  });

  it('says what to do next when something is missing', async () => {
    const url = server.url;
    const roomId = 'room_0123456789abcdef0123';
    const noLogin = await db8('nobody', ['act', roomId, '{"type":"bid","amount":5}', '--url', url]);
    expect(noLogin.status).toBe(5);
    expect(noLogin.stderr).toBe(
      `db8: not logged in to ${url}: run db8 login --api-key <key> (or --ssh-key <file>, or --link <admin link>)\n`,
    );

    const p = JSON.parse(await ok('p3', ['agent', 'register', '--url', url, '--json', '--login']));
    expect(await ok('p3', ['whoami'])).toContain(p.agent_id);
    const create = await db8('p3', ['room', 'create', '--protocol', 'sealed-bid']);
    expect(create.status).toBe(5);
    expect(create.stderr).toMatch(/FORBIDDEN: .*db8 login --link/);
    const missing = await db8('p3', ['room', 'status', roomId]);
    expect(missing.status).toBe(6);
    expect(missing.stderr).toMatch(/ROOM_NOT_FOUND: .*db8 room list/);
    const badJson = await db8('p3', ['act', roomId, '{type:bid}']);
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/^db8: action is not JSON/);

    const free = await freePort();
    const down = await db8('p3', ['room', 'list', '--url', `http://127.0.0.1:${free}`]);
    expect(down.status).toBe(4);
    expect(down.stderr).toBe(
      `db8: cannot reach http://127.0.0.1:${free} (ECONNREFUSED): is the server running? (db8 start, or give --url)\n`,
    );

    const unknownKey = join(dir, 'stranger_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', unknownKey]);
    const stranger = await db8('p4', ['login', '--ssh-key', unknownKey, '--url', url]);
    expect(stranger.status).toBe(5);
    expect(stranger.stderr).toMatch(/SIGNATURE_INVALID: .*is not registered: register the key first/);
  });

  it('db8 logout ends the saved session on the server, then forgets it', async () => {
    const url = server.url;
    await ok('p5', ['agent', 'register', '--url', url, '--json', '--login']);
    const saved = JSON.parse(readFileSync(join(dir, 'p5', 'session.json'), 'utf8'));
    const token: string = saved.session.token;
    const me = () => fetch(`${url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    expect(await ok('p5', ['logout'])).toMatch(
      /^logged out \(1 server session\(s\) ended; .*session\.json removed\)\n$/,
    );
    const after = await me();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('SESSION_REVOKED');
    // Nothing saved any more: a second logout has nothing to end.
    expect(await ok('p5', ['logout'])).toMatch(/^logged out \(0 server session\(s\) ended/);
  });
});
