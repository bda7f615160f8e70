// db8 export / db8 verify as a user runs them: a real server (startServer on PGlite) with a closed
// sealed-bid auction, exported over REST and from the data directory, verified offline, tampered
// with, and its checkpoints checked by the real `ssh-keygen -Y verify`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JournalRecord, journalKey, parseJournalText, verifyBundleText } from '@db8/core';
import { requireSshKeygen, sshKeygen } from '@db8/core/test/ssh-keygen-helpers.ts';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db8, db8Async, exportText, OTHER_KEY, records, sealedBidRoom, toText } from './journal-fixtures.ts';

// Each spawned CLI starts tsx (and PGlite for the store commands): seconds apiece on a busy machine.
const dir = mkdtempSync(join(tmpdir(), 'db8-journal-'));
const dataDir = join(dir, 'data');
const f = (name: string) => join(dir, name);
let server: RunningServer;
let url = '';
let roomId = '';
let adminToken = '';
let vkey = '';
let publicText = '';

/** Failures are one line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0]!;
}

function verifyFile(name: string, text: string, extra: string[] = []) {
  writeFileSync(f(name), text);
  return db8(['verify', f(name), ...extra]);
}

beforeAll(async () => {
  requireSshKeygen();
  server = await startServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    env: false,
    logLevel: 'silent',
    print: () => {},
  });
  const addr = server.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${addr.port}`;
  roomId = await sealedBidRoom(server.runtime);
  vkey = server.runtime.serverKey.noteVerifierKey;
  const link = server.adminLink ?? '';
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: link.slice(link.indexOf('#token=') + 7) }),
  });
  expect(login.status).toBe(200);
  adminToken = ((await login.json()) as { token: string }).token;
  publicText = await exportText(server.runtime, roomId);
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the exported bundle of a real room', { timeout: 180_000 }, () => {
  it('verifies against the pinned server key: every entry, checkpoint, reveal', () => {
    const r = verifyBundleText(publicText, { pinnedKey: vkey });
    expect(r.failures).toEqual([]);
    // genesis, 4 joins, 4 sealed bids, the revealing tick, confirm, close
    expect(r).toMatchObject({ ok: true, room: roomId, viewerClass: 'public', entries: 12, keyPinned: true });
    // 3 latest bids at the tick; 4 seats and the room seed at close
    expect(r.reveals).toBe(8);
    expect(r.checkpoints).toBe(records(publicText).filter((x) => x.type === 'checkpoint').length);
    expect(publicText).not.toContain('"sealed"');
  });

  it("db8 verify names who ended a room early (the monitor's End) and refolds it to that close", async () => {
    const id = await server.runtime
      .createRoom({
        protocol: 'sealed-bid',
        config: {
          item: 'vase',
          bidders: 2,
          reservePrice: 10,
          biddingWindowMs: 3_600_000,
          revealWindowMs: 3_600_000,
          rule: 'second-price',
        },
      })
      .then((r) => r.id);
    await server.runtime.end(id, { by: 'ops', reason: 'stuck in a demo' });
    const r = verifyFile('ended.jsonl', await exportText(server.runtime, id), ['--key', vkey]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /refolded sealed-bid v1 to seq 1, state [0-9a-f]{64}, ended early by ops \(stuck in a demo\)\n$/,
    );
  });

  it('the SSHSIG form of every checkpoint verifies with the real ssh-keygen and the exported allowed_signers', () => {
    const recs = records(publicText);
    const key = recs.find((x) => x.type === 'key') as { allowed_signers: string; identity: string };
    writeFileSync(f('allowed_signers'), `${key.allowed_signers}\n`);
    const cps = recs.filter((x) => x.type === 'checkpoint') as Array<{ text: string; sshsig: string }>;
    expect(cps.length).toBeGreaterThan(2);
    for (const [i, cp] of cps.entries()) {
      writeFileSync(f(`cp${i}.sig`), cp.sshsig);
      const args = ['-Y', 'verify', '-f', f('allowed_signers'), '-I', key.identity, '-n', 'db8-checkpoint'];
      const r = sshKeygen([...args, '-s', f(`cp${i}.sig`)], { input: cp.text });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Good "db8-checkpoint" signature for ${key.identity}`);
      // ssh-keygen really checks the text: another tree size is refused.
      const forged = cp.text.replace(/\n(\d+)\n/, (_, n: string) => `\n${Number(n) + 1}\n`);
      expect(sshKeygen([...args, '-s', f(`cp${i}.sig`)], { input: forged }).status).not.toBe(0);
    }
    // …and under another namespace (author signatures use `db8`) it is refused.
    const r = sshKeygen(
      ['-Y', 'verify', '-f', f('allowed_signers'), '-I', key.identity, '-n', 'db8', '-s', f('cp0.sig')],
      { input: cps[0]!.text },
    );
    expect(r.status).not.toBe(0);
  });

  it('db8 verify --ssh-dir lays out the files ssh-keygen needs', () => {
    const r = verifyFile('pub.jsonl', publicText, ['--ssh-dir', f('ssh')]);
    expect(r.status, r.stderr).toBe(0);
    const head = records(publicText)
      .filter((x) => x.type === 'checkpoint')
      .at(-1) as { size: number };
    const identity = readFileSync(f('ssh/allowed_signers'), 'utf8').split(' ')[0]!;
    const v = sshKeygen(
      [
        '-Y',
        'verify',
        '-f',
        f('ssh/allowed_signers'),
        '-I',
        identity,
        '-n',
        'db8-checkpoint',
        '-s',
        f(`ssh/checkpoint-${head.size}.sig`),
      ],
      { input: readFileSync(f(`ssh/checkpoint-${head.size}`)) },
    );
    expect(v.status, v.stderr).toBe(0);
  });
});

describe('db8 export over REST', { timeout: 180_000 }, () => {
  it('exports the public bundle by default; db8 verify accepts it (exit 0)', async () => {
    const e = await db8Async(['export', roomId, '--url', url, '-o', f('rest-public.jsonl')]);
    expect(e.status, e.stderr).toBe(0);
    const text = readFileSync(f('rest-public.jsonl'), 'utf8');
    expect(records(text)[0]).toMatchObject({ type: 'db8-journal', room: roomId, viewer_class: 'public' });
    const v = db8(['verify', f('rest-public.jsonl')]);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^ok .*room ${roomId}, public bundle, 12 entries`));
    expect(v.stdout).toContain('self-consistent only');
  });

  it('pins the key from server_ed25519.pub or a verifier key', async () => {
    const pub = db8(['verify', f('rest-public.jsonl'), '--key', join(dataDir, 'server_ed25519.pub')]);
    expect(pub.status, pub.stderr).toBe(0);
    expect(pub.stdout).toContain('signed by the pinned key');
    const note = db8(['verify', f('rest-public.jsonl'), '--key', vkey, '--json']);
    expect(note.status, note.stderr).toBe(0);
    expect(JSON.parse(note.stdout)).toMatchObject({ ok: true, keyPinned: true, entries: 12 });
  });

  it('--as admin needs a token that grants it; with one, sealed payloads come too', async () => {
    const denied = await db8Async(['export', roomId, '--url', url, '--as', 'admin']);
    expect(denied.status).toBe(5); // EXIT_AUTH: the server refuses ?as=admin without a token that grants it
    expect(oneLine(denied.stderr)).toMatch(
      /HTTP 403 FORBIDDEN: this token exports this room as public, not admin/,
    );
    const bogus = await db8Async(['export', roomId, '--url', url, '--token', 'not-a-token']);
    expect(bogus.status).toBe(5); // HTTP 401
    expect(oneLine(bogus.stderr)).toMatch(/HTTP 401/);
    const e = await db8Async(['export', roomId, '--url', url, '--as', 'admin', '--token', adminToken]);
    expect(e.status, e.stderr).toBe(0);
    const r = verifyBundleText(e.stdout, { pinnedKey: vkey });
    expect(r).toMatchObject({ ok: true, viewerClass: 'admin', sealed: 8 });
  });

  it('an admin token exporting --as public gets exactly the public bundle (the server honours ?as=public)', async () => {
    const e = await db8Async(['export', roomId, '--url', url, '--token', adminToken]);
    expect(e.status, e.stderr).toBe(0);
    const strip = (t: string) => records(t).map((x) => ({ ...x, exported_at: undefined }));
    expect(strip(e.stdout)).toEqual(strip(publicText));
  });

  it('without --url or --token the saved session is used; db8 replay <room> refolds the server export', async () => {
    const env = { DB8_HOME: mkdtempSync(join(tmpdir(), 'db8-home-')), DB8_URL: '', DB8_TOKEN: '' };
    const login = await db8Async(['login', '--url', url, '--token', adminToken], { env });
    expect(login.status, login.stderr).toBe(0);
    const e = await db8Async(['export', roomId, '--as', 'admin'], { env });
    expect(e.status, e.stderr).toBe(0);
    expect(verifyBundleText(e.stdout, { pinnedKey: vkey })).toMatchObject({ ok: true, viewerClass: 'admin' });
    const r = await db8Async(['replay', roomId, '--json'], { env });
    expect(r.status, r.stderr).toBe(0);
    const head = Math.max(
      ...records(e.stdout).map((x) => (x.type === 'entry' ? Number((x.entry as { seq: number }).seq) : -1)),
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, seq: head, problems: [] });
    // Named but not there: the server's answer, not a fallback to a local store.
    const gone = await db8Async(['replay', 'room_nope', '--url', url], { env });
    expect(gone.status).toBe(6);
    expect(oneLine(gone.stderr)).toMatch(/HTTP 404 ROOM_NOT_FOUND/);
  });

  it('an unknown room (exit 6) and an unreachable server (exit 4) are one-line errors', async () => {
    const nope = await db8Async(['export', 'room_nope', '--url', url]);
    expect(nope.status).toBe(6);
    expect(oneLine(nope.stderr)).toMatch(/HTTP 404 ROOM_NOT_FOUND/);
    const down = await db8Async(['export', roomId, '--url', 'http://127.0.0.1:9']);
    expect(down.status).toBe(4);
    expect(oneLine(down.stderr)).toMatch(/^db8: cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});

describe('db8 verify names the first failing entry (exit 3)', { timeout: 180_000 }, () => {
  const edit = (fn: (recs: Array<Record<string, unknown>>) => Array<Record<string, unknown>>) =>
    toText(fn(records(publicText)));
  const entry = (recs: Array<Record<string, unknown>>, seq: number) =>
    recs.find((x) => x.type === 'entry' && (x.entry as { seq: number }).seq === seq) as {
      entry: Record<string, unknown>;
    };

  it('a flipped byte in an entry payload', () => {
    const text = publicText.replace('"type":"confirm"', '"type":"confirn"');
    expect(text).not.toBe(publicText);
    const r = verifyFile('flip.jsonl', text);
    expect(r.status).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/^db8: .*flip\.jsonl: entry 10 \(line 13\): LEAF_MISMATCH: /);
  });

  it('a dropped entry, and two entries swapped', () => {
    const dropped = verifyFile(
      'drop.jsonl',
      edit((recs) => recs.filter((x) => x !== entry(recs, 6))),
    );
    expect(dropped.status).toBe(3);
    expect(oneLine(dropped.stderr)).toMatch(/entry 6 .*MISSING_ENTRY/);
    const swapped = verifyFile(
      'swap.jsonl',
      edit((recs) => {
        const i = recs.indexOf(entry(recs, 3));
        [recs[i], recs[i + 1]] = [recs[i + 1]!, recs[i]!];
        return recs;
      }),
    );
    expect(swapped.status).toBe(3);
    expect(oneLine(swapped.stderr)).toMatch(/entry 3 .*OUT_OF_ORDER/);
  });

  it('a checkpoint root changed', () => {
    const text = edit((recs) => {
      const cp = recs.filter((x) => x.type === 'checkpoint').at(-1) as { note: string; size: number };
      const lines = cp.note.split('\n');
      lines[2] = Buffer.alloc(32).toString('base64');
      cp.note = lines.join('\n');
      return recs;
    });
    const r = verifyFile('root.jsonl', text);
    expect(r.status).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/entry 11 .*CHECKPOINT_SIGNATURE: checkpoint 12: /);
  });

  it('a forged reveal of a sealed bid', () => {
    const text = edit((recs) => {
      const tick = entry(recs, 9);
      const reveals = tick.entry.reveals as Array<{ payload: { amount: number } }>;
      reveals[0]!.payload.amount += 1;
      return recs;
    });
    const r = verifyFile('reveal.jsonl', text);
    expect(r.status).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/entry 9 .*REVEAL_MISMATCH: the reveal of entry \d+ does not match/);
  });

  it('a swapped key, and a bundle re-signed by another key when the real one is pinned', () => {
    const other = journalKey({
      noteVkey: OTHER_KEY.noteVerifierKey,
      sshPublicKey: OTHER_KEY.sshPublicLine,
      identity: 'server@db8.test',
    });
    const swapped = edit((recs) => recs.map((x) => (x.type === 'key' ? other : x)));
    const r = verifyFile('key.jsonl', swapped);
    expect(r.status).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/entry 0 .*CHECKPOINT_SIGNATURE/);
    const pinned = verifyFile('key.jsonl', swapped, ['--key', vkey]);
    expect(pinned.status).toBe(3);
    expect(oneLine(pinned.stderr)).toMatch(/bundle: KEY_NOT_PINNED/);
  });

  it('not a bundle is exit 2; a missing file is exit 4', () => {
    const r = verifyFile('notes.txt', 'hello\n');
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/NO_HEADER|MALFORMED_RECORD/);
    const missing = db8(['verify', f('nope.jsonl')]);
    expect(missing.status).toBe(4);
    oneLine(missing.stderr);
  });
});

describe('db8 export --data-dir (server stopped)', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await server.close();
  });

  it('exports each viewer class from the store and the server key in the data directory', () => {
    const pub = db8(['export', roomId, '--data-dir', dataDir, '-o', f('dir-public.jsonl')]);
    expect(pub.status, pub.stderr).toBe(0);
    const v = db8(['verify', f('dir-public.jsonl'), '--key', vkey]);
    expect(v.status, v.stderr).toBe(0);
    const seat = db8(['export', roomId, '--data-dir', dataDir, '--as', 'seat:bidder_1']);
    expect(seat.status, seat.stderr).toBe(0);
    const parsed = parseJournalText(seat.stdout).records.map((x) => x.value as JournalRecord);
    const sealed = parsed.filter((x) => x.type === 'entry' && x.sealed);
    // bidder_1's two bids, and nothing of anyone else's
    expect(sealed.map((x) => x.type === 'entry' && x.entry.actor)).toEqual(['bidder_1', 'bidder_1']);
    expect(verifyBundleText(seat.stdout, { pinnedKey: vkey })).toMatchObject({ ok: true, sealed: 2 });
  });

  it('refuses a data directory without a store, and an unknown room', () => {
    const empty = db8(['export', roomId, '--data-dir', f('empty')]);
    expect(empty.status).toBe(1);
    expect(oneLine(empty.stderr)).toMatch(/no db8 store in/);
    const nope = db8(['export', 'room_nope', '--data-dir', dataDir]);
    expect(nope.status).toBe(2);
    expect(oneLine(nope.stderr)).toMatch(/room_nope/);
  });
});
