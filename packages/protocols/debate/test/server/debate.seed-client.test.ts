// Seed 000's literal client (docs/debate.md "Seed-literal client"), run with the seed's own tools:
// real jq, real ssh-keygen (a key certified by the room's CA), fetch against a listening server;
// then the git journal fetched with real git and every signature checked with ssh-keygen and
// openssl alone (docs/debate.md "Verifying the git journal").
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519, formatSshPublicKey, toBase64 } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DebateState,
  type DebateView,
  type LegalAction,
  type SubmitAction,
  submissionBytes,
} from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-seed-client-'));
const repo = join(dir, 'journal.git');
const home = join(dir, 'agent');
let s: Awaited<ReturnType<typeof debateServer>>;
let base: string;

function sh(script: string, cwd = home): string {
  try {
    return execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${script}\n${err.stderr || err.message}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by the test.
type Body = Record<string, any>;
type SubmitSlot = Extract<LegalAction, { type: 'submit' }>;
const submitSlot = (actions: LegalAction[]) => actions.find((a): a is SubmitSlot => a.type === 'submit')!;

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

beforeAll(async () => {
  execFileSync('git', ['init', '-q', '--bare', repo]);
  mkdirSync(home);
  s = await debateServer({ journalGit: repo });
  base = await s.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seed 000 literal client', () => {
  it('logs in, submits jq -S bytes signed by ssh-keygen, votes; the journal verifies with git, ssh-keygen and openssl', async () => {
    const browser = ed25519.keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const room = await s.createDebate({
      max_rounds: 2,
      timings: TIMINGS,
      trust: { keys: { anon_1: [formatSshPublicKey(browser.publicKey)] } },
    });
    const R = room.room_id;
    const seats = await s.seatEveryone(R);
    const principal = `anon_3@${R}`;

    // 1) A key and a certificate from the room's CA (the seed's `db8 auth issue-cert`).
    sh(`ssh-keygen -q -t ed25519 -N '' -f id_ed25519`);
    const cert = await s.call('POST', `/v1/rooms/${R}/certs`, {
      token: seats.get('anon_3')!.token,
      body: { public_key: readFileSync(join(home, 'id_ed25519.pub'), 'utf8') },
    });
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    writeFileSync(join(home, 'id_ed25519-cert.pub'), `${cert.body.certificate}\n`);

    // 2–4) Challenge, sign with the plain key, verify with the certificate beside it.
    writeFileSync(join(home, 'nonce.json'), await (await fetch(`${base}/auth/challenge`)).text());
    sh(`jq -r .nonce nonce.json > nonce.txt
        ssh-keygen -Y sign -f id_ed25519 -n db8 -O hashalg=sha256 nonce.txt`);
    const verifyBody = sh(`jq -n --arg p "${principal}" \\
        --arg sig "$(base64 -w0 nonce.txt.sig)" \\
        --arg cert "$(base64 -w0 id_ed25519-cert.pub)" \\
        '{principal:$p, signature_b64:$sig, cert_b64:$cert}'`);
    const login = await post('/auth/verify', verifyBody);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body).toMatchObject({ ok: true, room_id: R, seat: 'anon_3' });
    const session: string = login.body.token;
    // The nonce was single-use.
    expect((await post('/auth/verify', verifyBody)).body.error.code).toBe('NONCE_INVALID');

    // Move to the first submit window.
    let view = (await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin })).body.view as DebateView;
    while (view.phase !== 'submit') {
      s.clock.now = (await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin })).body.deadline_ms;
      await s.runtime.tick(R, s.clock.now);
      view = (await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin })).body.view as DebateView;
    }
    const st = await s.call('GET', `/v1/rooms/${R}/state`, { token: session });
    const slot = submitSlot(st.body.legal.actions);
    // The draft with its keys in no particular order: `jq -S .` sorts them.
    const draft = {
      content: 'Cars cost cities more than they pay — “externalities”, DEL\u007f and all.',
      citations: [{ url: 'https://example.org/a', title: 'A' }, { url: 'https://example.org/b' }],
      claims: [
        {
          text: 'Parking is subsidised',
          id: 'c1',
          support: [{ ref: 'https://example.org/a', kind: 'citation' as const }],
        },
      ],
      deadline_unix: slot.deadline_unix,
      phase: slot.phase,
      author_id: 'anon_3',
      round_id: slot.round_id,
      room_id: R,
    };
    writeFileSync(join(home, 'draft.json'), JSON.stringify(draft));
    sh(`jq -S . draft.json > submission.json
        ssh-keygen -Y sign -f id_ed25519-cert.pub -n db8 submission.json`);
    const seedBody = () =>
      sh(`jq -n --argjson p "$(cat submission.json)" \\
        --arg sig "$(base64 -w0 submission.json.sig)" \\
        --arg fp "$(ssh-keygen -lf id_ed25519.pub | awk '{print $2}')" \\
        '($p + {signature_kind:"ssh", signature_b64:$sig, signer_fingerprint:$fp})'`);
    const headSeq = async () => (await s.runtime.protocolState(R)).seq;

    // dry_run: validated (signature included), hashed, nothing written.
    const before = await headSeq();
    const dry = await post('/rpc/submission.create?dry_run=true', seedBody(), session);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ ok: true, submission_id: null });
    expect(await headSeq()).toBe(before);

    // A tampered byte in the payload or the signature is refused, and writes nothing.
    const tampered = JSON.parse(seedBody());
    tampered.content = tampered.content.replace('more', 'mora');
    const t1 = await post('/rpc/submission.create', tampered, session);
    expect(t1.status, JSON.stringify(t1.body)).toBe(409);
    expect(t1.body.error.code).toBe('BAD_SIGNATURE');
    const badSig = JSON.parse(seedBody());
    const armored = Buffer.from(badSig.signature_b64, 'base64').toString('utf8').split('\n');
    armored[3] = `${armored[3]!.slice(0, 10)}${armored[3]![10] === 'A' ? 'B' : 'A'}${armored[3]!.slice(11)}`;
    badSig.signature_b64 = Buffer.from(armored.join('\n')).toString('base64');
    const t2 = await post('/rpc/submission.create', badSig, session);
    expect(t2.status, JSON.stringify(t2.body)).toBe(409);
    expect(t2.body.error.code).toBe('BAD_SIGNATURE');
    // Validly signed bytes of another payload, sent beside this one, are refused.
    writeFileSync(
      join(home, 'draft2.json'),
      JSON.stringify({ ...draft, content: 'Something else entirely.' }),
    );
    sh(`jq -S . draft2.json > other.json
        ssh-keygen -Y sign -f id_ed25519-cert.pub -n db8 other.json`);
    const swapped = {
      ...JSON.parse(seedBody()),
      signed_b64: readFileSync(join(home, 'other.json')).toString('base64'),
      signature_b64: readFileSync(join(home, 'other.json.sig')).toString('base64'),
    };
    const t3 = await post('/rpc/submission.create', swapped, session);
    expect(t3.status, JSON.stringify(t3.body)).toBe(409);
    expect(t3.body.error).toMatchObject({
      code: 'BAD_SIGNATURE',
      message: expect.stringContaining('not this payload'),
    });
    expect(await headSeq()).toBe(before);

    // The real submission, then a retry of it (a duplicate, nothing new).
    const ok = await post('/rpc/submission.create', seedBody(), session);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, submission_id: `${R}:${before + 1}`, duplicate: false });
    expect(ok.body.canonical_sha256).toBe(dry.body.canonical_sha256);
    expect((await post('/rpc/submission.create', seedBody(), session)).body.duplicate).toBe(true);
    const mine = (await s.call('GET', `/v1/rooms/${R}/state`, { token: session })).body.view as DebateView;
    const stored = mine.rounds[0]!.submissions.find((x) => x.author === 'anon_3')!;
    expect(stored.canonical_sha256).toBe(ok.body.canonical_sha256);
    expect(stored.signature).toMatchObject({ kind: 'ssh', via: 'certificate' });

    // anon_1 signs in the browser's way: raw Ed25519 over the canonical bytes, on db8's own route.
    const a1 = s.call('GET', `/v1/rooms/${R}/state`, { token: seats.get('anon_1')!.token });
    const a1slot = submitSlot((await a1).body.legal.actions);
    const a1action: SubmitAction = {
      ...draft,
      author_id: 'anon_1',
      content: 'Signed in a browser.',
      type: 'submit',
      client_nonce: 'b1',
      deadline_unix: a1slot.deadline_unix,
    };
    const a1sig = toBase64(ed25519.sign(browser.seed, submissionBytes(a1action)));
    const a1res = await s.call('POST', `/v1/rooms/${R}/actions`, {
      token: seats.get('anon_1')!.token,
      body: { seat: 'anon_1', action: { ...a1action, signature_kind: 'ed25519', signature_b64: a1sig } },
    });
    expect(a1res.status, JSON.stringify(a1res.body)).toBe(200);

    // To the continue vote, where anon_3 votes over /rpc/vote.continue.
    while (view.phase !== 'published') {
      s.clock.now = (await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin })).body.deadline_ms;
      await s.runtime.tick(R, s.clock.now);
      view = (await s.call('GET', `/v1/rooms/${R}/state`, { token: s.admin })).body.view as DebateView;
    }
    const roundId = view.rounds[0]!.round_id;
    const wrong = await post('/rpc/vote.continue', { room_id: R, round_id: 'nope', choice: 'end' }, session);
    expect(wrong.status).toBe(409);
    const vote = await post('/rpc/vote.continue', { room_id: R, round_id: roundId, choice: 'end' }, session);
    expect(vote.status, JSON.stringify(vote.body)).toBe(200);
    const voted = (await s.runtime.protocolState(R)).state as DebateState;
    expect(voted.rounds[0]!.continue_vote!.votes.anon_3).toMatchObject({ choice: 'end', seq: vote.body.seq });
    const others = new Map([...seats].filter(([k]) => k !== 'anon_3'));
    await s.playToClose(R, others);
    await s.plugin.journal!.flush();

    // Anyone: fetch the trust ref and the journal with git, verify with ssh-keygen and openssl alone.
    const clone = join(dir, 'clone');
    sh(`git init -q ${clone} && git -C ${clone} fetch -q ${repo} 'refs/_db8/*:refs/_db8/*'`, dir);
    const git = (args: string) => sh(`git -C ${clone} ${args}`, dir);
    const trust = git('cat-file blob refs/_db8/trust/ssh_ca.pub');
    expect(trust.trim()).toBe(formatSshPublicKey(s.serverKey.publicKey));
    const ref = `refs/_db8/journal/${R}`;
    const signers = git(`show ${ref}:allowed_signers`);
    writeFileSync(join(dir, 'allowed_signers'), signers);
    expect(signers).toContain(`${principal} cert-authority,namespaces="db8" ${trust.trim()}`);
    const files = git(`ls-tree -r --name-only ${ref}`).trim().split('\n');
    const rounds = [...new Set(files.filter((f) => f.startsWith('round-')).map((f) => f.split('/')[0]!))];
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    const out = (f: string) => join(dir, f.replaceAll('/', '_'));
    const checked = { chain: 0, ssh: 0, ed25519: 0 };
    for (const r of rounds) {
      git(`show ${ref}:${r}/round.chain > ${out(`${r}.chain`)}`);
      git(`show ${ref}:${r}/round.chain.sig > ${out(`${r}.chain.sig`)}`);
      expect(
        sh(
          `ssh-keygen -Y verify -f allowed_signers -I db8-server -n db8-journal -s ${out(`${r}.chain.sig`)} < ${out(`${r}.chain`)}`,
          dir,
        ),
      ).toContain('Good');
      checked.chain++;
      for (const f of files.filter((x) => x.startsWith(`${r}/submissions/`) && x.endsWith('.ssh.sig'))) {
        const author = f.split('/').at(-1)!.replace('.ssh.sig', '');
        // The verify time as docs/debate.md computes it, with jq from meta.json.
        const at = sh(
          `git -C ${clone} show ${ref}:${r}/submissions/${author}.meta.json | jq -r '.submitted_at / 1000 | floor | strftime("%Y%m%d%H%M%SZ")'`,
          dir,
        ).trim();
        const signed = files.includes(`${r}/submissions/${author}.signed.json`) ? 'signed.json' : 'json';
        git(`show ${ref}:${r}/submissions/${author}.${signed} > ${out(`${r}-${author}.msg`)}`);
        git(`show ${ref}:${f} > ${out(`${r}-${author}.sig`)}`);
        const v = `ssh-keygen -Y verify -f allowed_signers -I ${author}@${R} -n db8 -O verify-time=${at} -s ${out(`${r}-${author}.sig`)}`;
        expect(sh(`${v} < ${out(`${r}-${author}.msg`)}`, dir)).toContain('Good');
        // The signed bytes are the seed's `jq -S .` rendering of the stored canonical payload.
        expect(sh(`git -C ${clone} show ${ref}:${r}/submissions/${author}.json | jq -S .`, dir)).toBe(
          readFileSync(out(`${r}-${author}.msg`), 'utf8'),
        );
        // One changed byte fails.
        writeFileSync(
          out(`${r}-${author}.bad`),
          readFileSync(out(`${r}-${author}.msg`), 'utf8').replace('more', 'mora'),
        );
        expect(() => sh(`${v} < ${out(`${r}-${author}.bad`)}`, dir)).toThrow();
        checked.ssh++;
      }
      for (const f of files.filter((x) => x.startsWith(`${r}/submissions/`) && x.endsWith('.ed25519.sig'))) {
        const p = f.replace('.ed25519.sig', '');
        git(`show ${ref}:${p}.json > ${out('msg.json')}`);
        git(`show ${ref}:${p}.ed25519.pub.pem > ${out('pub.pem')}`);
        sh(`git -C ${clone} show ${ref}:${f} | base64 -d > ${out('sig.bin')}`, dir);
        const v = `openssl pkeyutl -verify -pubin -inkey ${out('pub.pem')} -rawin -sigfile ${out('sig.bin')} -in`;
        expect(sh(`${v} ${out('msg.json')}`, dir)).toContain('Signature Verified Successfully');
        const node = `const c=require("crypto"),f=require("fs");console.log(c.verify(null,f.readFileSync("msg.json"),f.readFileSync("pub.pem"),f.readFileSync("sig.bin")))`;
        // It runs in `dir`, where out('msg.json'), out('pub.pem') and out('sig.bin') are.
        expect(sh(`node -e '${node}'`, dir).trim()).toBe('true');
        writeFileSync(out('bad.json'), readFileSync(out('msg.json'), 'utf8').replace('browser', 'bowser'));
        expect(() => sh(`${v} ${out('bad.json')}`, dir)).toThrow();
        checked.ed25519++;
      }
    }
    expect(checked).toEqual({ chain: rounds.length, ssh: 1, ed25519: 1 });
  }, 180_000);
});
