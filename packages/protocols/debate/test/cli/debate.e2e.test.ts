// A whole debate end to end against a real server (ephemeral port, PGlite in a temp dir): three
// debaters are people at a terminal, running the spawned CLI — one signs with the REAL
// `ssh-keygen -Y sign -n db8` by a plain key over what `db8 canon` prints, one through a room
// certificate the server issued (`db8 auth issue-cert`, then ssh-keygen with the certificate), one
// with `db8 submit --sign` — and the rest of the room (two debaters, the fact-checker, a judge, a
// viewer) are scripted SDK agents. From creation to closed; then `db8 debate verify`, the exported
// bundle through `db8 verify`, a tampered bundle refused, and the ratings endpoint.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db8Client } from '@db8/sdk';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { castSeats, registerAgents, takeSeats } from '../../cli/cast.ts';
import { driveSeat } from '../../cli/driver.ts';
import { checkDebateJournal } from '../../cli/journal-check.ts';
import { debateRatings } from '../../client/index.ts';
import type { DebateView } from '../../rules/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', '..', '..', 'app', 'bin', 'db8.js');
const dir = mkdtempSync(join(tmpdir(), 'db8-debate-e2e-'));
let server: RunningServer;
let api: Db8Client;
let admin: Db8Client;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function db8(home: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DB8_HOME: join(dir, home), DB8_URL: server.url };
  delete env.DB8_ROOM;
  delete env.DATABASE_URL;
  const p = spawn(process.execPath, [BIN, ...args], {
    cwd: join(dir, home),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => {
    stdout += String(d);
  });
  p.stderr.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`db8 ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, 900_000);
    p.on('exit', (status) => {
      clearTimeout(t);
      resolve({ status, stdout, stderr });
    });
  });
}

async function ok(home: string, args: string[]): Promise<string> {
  const r = await db8(home, args);
  expect(r.status, `db8 ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

function sshKeygen(args: string[], input?: string): string {
  try {
    return execFileSync('ssh-keygen', args, {
      input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TZ: 'UTC' },
    });
  } catch (e) {
    throw new Error(
      `ssh-keygen ${args.join(' ')} failed (is openssh-client installed?): ${(e as Error).message}`,
    );
  }
}

async function viewOf(roomId: string): Promise<{ view: DebateView; status: string }> {
  const s = await admin.state(roomId);
  return { view: s.view as DebateView, status: s.status };
}

async function until(
  roomId: string,
  what: string,
  pred: (v: DebateView, status: string) => boolean,
  ms: number,
) {
  const end = Date.now() + ms;
  for (;;) {
    const { view, status } = await viewOf(roomId);
    if (pred(view, status)) return view;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}; the room is in ${view.phase} (round ${view.round})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The author fills in draft.json as `db8 draft open` left it. */
function fill(path: string, seat: string, round: string) {
  const d = JSON.parse(readFileSync(path, 'utf8'));
  d.content = `[e2e] ${seat} argues the ${round} case: congestion charges fund transit better than bans.`;
  d.claims = [
    {
      id: 'c1',
      text: `[e2e] claim one of ${seat}`,
      support: [{ kind: 'citation', ref: 'https://example.org/a' }],
      confidence: 70,
    },
    { id: 'c2', text: `[e2e] claim two of ${seat}`, support: [{ kind: 'logic', ref: 'follows from c1' }] },
  ];
  d.citations = [
    { url: 'https://example.org/a', title: 'A' },
    { url: 'https://example.org/b', title: 'B' },
  ];
  writeFileSync(path, JSON.stringify(d, null, 2));
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
  api = new Db8Client({ baseUrl: server.url });
  for (const h of ['admin', 'd1', 'd2', 'd3']) mkdirSync(join(dir, h), { recursive: true });
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a debate end to end: CLI and SDK debaters, real ssh-keygen, a room certificate', {
  timeout: 900_000,
}, () => {
  it('runs from creation to closed; its export verifies; the ratings reflect it', async () => {
    // Windows sized to this machine: three CLI commands at once (as the debaters run them) take T.
    await ok('admin', ['login', '--link', server.adminLink!]);
    const t0 = Date.now();
    await Promise.all(['d1', 'd2', 'd3'].map((h) => ok(h, ['--version'])));
    const T = Math.max(2_000, Date.now() - t0);
    // The link is single-use: the test's own SDK admin client shares the CLI admin's session.
    admin = api.withToken(JSON.parse(readFileSync(join(dir, 'admin', 'session.json'), 'utf8')).session.token);
    const cfgPath = join(dir, 'admin', 'debate.json');
    writeFileSync(
      cfgPath,
      JSON.stringify({
        topic: 'Should cities ban private cars from their centres?',
        tags: ['e2e', 'urbanism'],
        judges: 1,
        viewers: 1,
        max_rounds: 2,
        final_voters: ['judge', 'viewer', 'debater'],
        timings: {
          // Each window holds the rounds of commands that must land in it, with room to spare:
          // research 2 (join; certificate and refusals), round 1 up to 3 (draft, canon, submit),
          // the continue vote 1, the final round 3 (draft, submit, resubmit), the final vote 2.
          research_ms: Math.max(15_000, 4 * T),
          submit_ms: Math.max(20_000, 5 * T),
          verify_ms: 15_000,
          continue_vote_ms: Math.max(10_000, 3 * T),
          final_submit_ms: Math.max(20_000, 5 * T),
          final_vote_ms: Math.max(10_000, 4 * T),
          results_ms: 1_500,
          reveal_ms: 1_500,
        },
      }),
    );

    // Keys: a plain key for anon_1, a key to certify for anon_2, a key for in-process signing (anon_3).
    const key = (n: string) => join(dir, `d${n}`, 'id_ed25519');
    for (const n of ['1', '2', '3'])
      sshKeygen(['-q', '-t', 'ed25519', '-N', '', '-C', `d${n}`, '-f', key(n)]);

    // The three CLI debaters register as agents (sessions saved); nothing is timed yet.
    await Promise.all(
      ['d1', 'd2', 'd3'].map((h) => ok(h, ['agent', 'register', '--name', `cli-${h}`, '--login'])),
    );

    const created = JSON.parse(
      await ok('admin', ['debate', 'create', '--config', cfgPath, '--title', 'e2e', '--json']),
    );
    const R: string = created.room_id;
    expect(created.config.room_id).toBe(R);
    const ROOM = ['--room', R];

    // Research: everyone takes a seat; anon_2 gets a room certificate for its key.
    const join3 = Promise.all(
      ['1', '2', '3'].map((n) => ok(`d${n}`, ['room', 'join', R, '--seat', `anon_${n}`])),
    );
    const seats = castSeats({ debaters: 5, judges: 1, viewers: 1 }).filter(
      (s) => !['anon_1', 'anon_2', 'anon_3'].includes(s),
    );
    const agents = await registerAgents(
      api,
      seats.map((s) => `sdk-${s}`),
    );
    const handles = await takeSeats(api, R, seats, agents, admin);
    await join3;
    const [certOut, wrong, early] = await Promise.all([
      ok('d2', [
        'auth',
        'issue-cert',
        '--principal',
        `anon_2@${R}`,
        '--ttl',
        '1h',
        '--key',
        `${key('2')}.pub`,
      ]),
      // The room CA certifies only the caller's own seat.
      db8('d1', ['auth', 'issue-cert', '--principal', `anon_2@${R}`, '--key', `${key('1')}.pub`]),
      // Drafting during research says when submit opens.
      db8('d3', ['draft', 'open', ...ROOM]),
    ]);
    expect(certOut).toContain(`certificate for anon_2@${R}`);
    expect(sshKeygen(['-L', '-f', `${key('2')}-cert.pub`])).toContain(`anon_2@${R}`);
    expect(wrong.status).toBe(6);
    expect(wrong.stderr).toMatch(/you hold anon_1 in .*, not anon_2/);
    expect(early.status).toBe(6);
    expect(early.stderr).toMatch(
      /^db8: drafting is closed: the room is in research \(round 1\) until \d\d:\d\d:\d\dZ, when the submit window opens$/m,
    );

    const drivers = Promise.all(handles.map((h) => driveSeat({ client: h.client, roomId: R, seat: h.seat })));

    // ---- round 1 ----
    await until(R, 'round 1 submit', (v) => v.phase === 'submit', 120_000);
    const draft = (n: string) => join(dir, `d${n}`, 'draft.json');
    const round1 = async (n: string) => {
      const opened = await ok(`d${n}`, ['draft', 'open', ...ROOM]);
      expect(opened).toMatch(/^wrote draft\.json for anon_\d in room_\w+, round \w+-r1 \(OPENING\)/);
      expect(opened).toContain('content: ');
      fill(draft(n), `anon_${n}`, 'opening');
      if (n === '3') return ok('d3', ['submit', '--sign', key('3')]);
      // The bytes to sign are what `db8 canon draft.json` prints; sign them with the real ssh-keygen.
      const canon = await ok(`d${n}`, ['canon', 'draft.json']);
      const sub = join(dir, `d${n}`, 'submission.json');
      writeFileSync(sub, canon);
      sshKeygen(['-Y', 'sign', '-n', 'db8', '-f', n === '2' ? `${key('2')}-cert.pub` : key('1'), sub]);
      return ok(`d${n}`, ['submit', 'draft.json', '--sig', `${sub}.sig`]);
    };
    const [s1, s2, s3] = await Promise.all(['1', '2', '3'].map(round1));
    expect(s1).toMatch(/registered signing key SHA256:\S+ for anon_1/);
    expect(s1).toMatch(
      /submitted anon_1's OPENING for round \w+-r1: version 1, seq \d+, sha256 [0-9a-f]{64}, ssh-signed \(key/,
    );
    expect(s2).toContain(`ssh-signed (certificate anon_2@${R}`);
    expect(s3).toMatch(/ssh-signed \(key/);
    // A second submit is pointed at resubmit.
    const again = await db8('d1', ['submit']);
    expect(again.status).toBe(6);
    expect(again.stderr).toContain('you already submitted version 1 of round');

    // A watcher from here to the close (it prints every published round and the results).
    const watcher = db8('d3', ['debate', 'watch', R]);

    // ---- continue vote (CLI debaters: two yes, one no; scripted anon_5 yes, anon_4 no) ----
    await until(R, 'round 1 published', (v) => v.phase === 'published' || v.round > 1, 180_000);
    const votes = await Promise.all([
      ok('d1', ['vote', 'continue', 'yes', ...ROOM]),
      ok('d2', ['vote', 'continue', 'yes', ...ROOM]),
      ok('d3', ['vote', 'continue', 'no', ...ROOM]),
    ]);
    expect(votes[0]).toMatch(/^anon_1 voted yes \(continue\) after round 1/);

    // ---- round 2: in-process signing; anon_2's certificate is picked up next to its key ----
    await until(R, 'round 2 submit', (v) => v.round === 2 && v.phase === 'submit', 120_000);
    const round2 = async (n: string) => {
      expect(await ok(`d${n}`, ['draft', 'open', ...ROOM])).toMatch(
        /^updated draft\.json .* round \w+-r2 \(ARGUMENT\)/,
      );
      return ok(`d${n}`, ['submit', '--sign', key(n)]);
    };
    const r2 = await Promise.all(['1', '2', '3'].map(round2));
    expect(r2[1]).toContain(`certificate anon_2@${R}`);

    // ---- final round: anon_3 resubmits ----
    await until(R, 'final submit', (v) => v.phase === 'final_submit', 180_000);
    const finals = await Promise.all(
      ['1', '2', '3'].map(async (n) => {
        await ok(`d${n}`, ['draft', 'open', ...ROOM]);
        return ok(`d${n}`, ['submit', '--sign', key(n)]);
      }),
    );
    expect(finals[2]).toMatch(/FINAL for round \w+-final: version 1/);
    const d3 = JSON.parse(readFileSync(draft('3'), 'utf8'));
    d3.content += ' [e2e] Revised.';
    writeFileSync(draft('3'), JSON.stringify(d3));
    expect(await ok('d3', ['resubmit', '--sign', key('3')])).toMatch(
      /^resubmitted anon_3's FINAL .*version 2/m,
    );

    // ---- final vote: a debater votes by CLI; the scripted judge and viewer by SDK ----
    await until(R, 'final vote', (v) => v.phase === 'final_vote', 180_000);
    expect(
      await ok('d1', [
        'vote',
        'final',
        '--approve',
        'anon_3,anon_2',
        '--rank',
        'anon_3,anon_2,anon_5,anon_4',
        ...ROOM,
      ]),
    ).toMatch(/^anon_1 approved anon_3, anon_2, ranked anon_3 > anon_2 > anon_5 > anon_4/);
    const [selfVote, status] = await Promise.all([
      db8('d2', ['vote', 'final', '--approve', 'anon_2', ...ROOM]),
      ok('d3', ['debate', 'status', R]),
    ]);
    expect(status).toMatch(/^── final round final_vote · until \d\d:\d\d:\d\dZ/m);
    expect(status).toMatch(/^round 1 OPENING \(published\): anon_1 verified, anon_2 verified/m);
    expect(status).toContain('you may: db8 vote final --approve');
    expect(selfVote.status).toBe(6);
    expect(selfVote.stderr).toContain('anon_2 is not a candidate for you');

    const end = await until(R, 'closed', (_v, st) => st === 'closed', 180_000);
    await drivers;
    const watched = await watcher;
    expect(watched.status, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(
      /^══ round 1 \(OPENING\) published at \d\d:\d\d:\d\dZ · chain [0-9a-f]{16}$/m,
    );
    expect(watched.stdout).toContain('anon_2: verified v1 · ssh via certificate');
    expect(watched.stdout).toContain('── continue vote: 3 continue, 2 end → continue (majority)');
    expect(watched.stdout).toMatch(/^══ final round \(FINAL\) published/m);
    expect(watched.stdout).toMatch(/^══ results: ".*" after 3 round\(s\)/m);
    expect(watched.stdout).toMatch(/^── closed$/m);
    expect(end.phase).toBe('closed');
    expect(end.rounds.map((r) => r.label)).toEqual(['OPENING', 'ARGUMENT', 'FINAL']);
    expect(end.rounds[0]!.continue_vote!.tally).toMatchObject({ continue: 3, end: 2, outcome: 'continue' });
    const subsOf = (i: number, seat: string) => end.rounds[i]!.submissions.find((s) => s.author === seat)!;
    expect(subsOf(0, 'anon_1').signature).toMatchObject({ kind: 'ssh', via: 'key' });
    expect(subsOf(0, 'anon_2').signature).toMatchObject({ kind: 'ssh', via: 'certificate' });
    expect(subsOf(1, 'anon_2').signature).toMatchObject({ kind: 'ssh', via: 'certificate' });
    expect(subsOf(2, 'anon_3').version).toBe(2);
    expect(subsOf(0, 'anon_4').signature?.kind).toBe('server');
    const ids = end.results!.identities!;
    const principals = JSON.parse(readFileSync(join(dir, 'd1', 'session.json'), 'utf8')).principal;
    expect(ids.anon_1).toBe(principals);
    for (const h of handles.filter((x) => x.seat.startsWith('anon_'))) expect(ids[h.seat]).toBe(h.principal);

    // ---- the journal: db8 debate verify (export + verify + debate checks), and db8 verify on the bundle ----
    const pub = join(dir, 'data', 'server_ed25519.pub');
    const verified = await ok('d1', ['debate', 'verify', R, '--key', pub, '-o', 'bundle.jsonl']);
    expect(verified).toMatch(/^ok room_\w+: \d+ entries, \d+ signed checkpoints/);
    expect(verified).toContain('signed by the pinned key');
    expect(verified).toContain(
      '15 published submissions in 3 round(s): 6 signed by key, 3 by room certificate, 6 server-attested',
    );
    expect(verified).toContain("= the results' chain");
    const bundle = join(dir, 'd1', 'bundle.jsonl');
    expect(await ok('d1', ['verify', bundle, '--key', pub])).toMatch(
      /^ok .*bundle\.jsonl: room room_\w+, seat:anon_1 bundle/,
    );

    // `debate export` and the generic `room export` share one fetch: the same closed-room bundle
    // (all but the header's exported_at).
    const text = readFileSync(bundle, 'utf8');
    const body = (file: string) =>
      readFileSync(join(dir, 'd1', file), 'utf8')
        .split('\n')
        .slice(1);
    await ok('d1', ['room', 'export', R, '-o', 'room.jsonl']);
    await ok('d1', ['debate', 'export', R, '-o', 'debate.jsonl']);
    expect(body('room.jsonl')).toEqual(body('bundle.jsonl'));
    expect(body('debate.jsonl')).toEqual(body('bundle.jsonl'));

    // Tampering is caught: one byte of a revealed submission.
    const tampered = text.replace('congestion charges', 'congestion charger');
    expect(tampered).not.toBe(text);
    writeFileSync(join(dir, 'd1', 'tampered.jsonl'), tampered);
    const bad = await db8('d1', ['verify', 'tampered.jsonl', '--key', pub]);
    expect(bad.status).toBe(3);
    // The debate check alone re-verifies signatures offline: drop the room CA from the config and the
    // certificate-signed submissions no longer verify.
    const noCa = text.replace(/"ca_keys":\["ssh-ed25519 [^"]+"\]/, '"ca_keys":[]');
    expect(noCa).not.toBe(text);
    const report = checkDebateJournal(noCa);
    expect(report.ok).toBe(false);
    expect(report.failures[0]).toMatch(/anon_2.*signature does not verify offline/);

    // ---- ratings ----
    const ratings = await debateRatings(api);
    expect(ratings.matches).toBe(1);
    expect(ratings.global.map((r) => r.identity).sort()).toEqual(Object.values(ids).sort());
    const winner = end.results!.placements[0]!.seat;
    expect(ratings.global[0]!.identity).toBe(ids[winner]);
    expect(Object.keys(ratings.tags).sort()).toEqual(['e2e', 'urbanism']);
    const cli = JSON.parse(await ok('d1', ['debate', 'ratings', '--json']));
    expect(cli.global).toEqual(ratings.global);
  });
});
