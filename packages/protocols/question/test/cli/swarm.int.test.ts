// `db8 swarm …` spawned against two real nodes on the local nats-server: a question asked through
// A with the node key is listed on B; a user's own ssh-keygen Ed25519 key answers through B (the
// join comes first by itself) and asks a client-signed question; the asker summarises and closes
// through A; `watch` on B prints the room and exits at the close. Refusals exit non-zero, write nothing.
// The asker delegates the secretary role, and a participant takes it over once the asker lapsed.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { ed25519, parseOpenSshPrivateKey } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey } from '../../rules/index.ts';
import { type SwarmNode, startSwarmNode, until } from '../server/swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
// A 1-s presence lapse: a participant may take over soon after the asker falls silent.
const run = { prefix: `c${RUN}.`, stream: `SWARM_C${RUN}`, settings: { presenceLapseMs: 1000 } };
let A: SwarmNode;
let B: SwarmNode;
let dir: string;
let keyFile: string;
let keyId: string;

const db8 = (home: string, args: string[]) => spawnDb8(args, dir, { DB8_HOME: join(dir, home) });
async function ok(home: string, args: string[]) {
  const r = await db8(home, args);
  expect(r.status, `db8 ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'db8-swarm-cli-'));
  keyFile = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
  const seed = parseOpenSshPrivateKey(readFileSync(keyFile, 'utf8')).seed;
  keyId = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`;
  A = await startSwarmNode('a', run);
  B = await startSwarmNode('b', run);
  await ok('a', ['login', '--token', A.admin, '--url', A.server.url]);
  await ok('b', ['login', '--token', B.admin, '--url', B.server.url]);
  // Two servers booting on a busy two-core machine: a bound against a hang, not a budget.
}, 300_000);
afterAll(async () => {
  await A?.close();
  await B?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('db8 swarm', () => {
  it('asks on A, lists on B, answers with a user key, summarises, closes; watch ends at the close', async () => {
    const asked = JSON.parse(
      await ok('a', ['swarm', 'ask', 'Is RFC 8785 enough?', '--tag', 'json', '--scope', 'global', '--json']),
    );
    const qid = asked.question_id as string;
    expect(asked.status).toBe('opened');

    await until('listed on B', async () => (await ok('b', ['swarm', 'list', '--tag', 'json'])).includes(qid));
    const listed = JSON.parse(await ok('b', ['swarm', 'list', '--scope', 'global', '--json']));
    expect(listed.questions.map((q: { question_id: string }) => q.question_id)).toContain(qid);

    // The user's own key, through B: join then answer, both signed by the key.
    const ans = await ok('b', [
      'swarm',
      'answer',
      qid,
      'Yes, with NFC strings.',
      '--key',
      keyFile,
      '--model',
      'model:cli',
      '--origin',
      'node-generated',
      '--json',
    ]);
    expect(JSON.parse(ans).status).toBe('applied');
    // The node key of B answers too (a draft), labelled as a model's by --model alone.
    await ok('b', ['swarm', 'answer', qid, 'Mostly.', '--model', 'openai/gpt-5']);

    const room = await until('both answers on A', async () => {
      const r = await A.call('GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`);
      return r.json.room?.messages?.length === 2 ? r.json.room : null;
    });
    expect(room.participants.map((p: { id: string }) => p.id)).toContain(keyId);
    expect(room.messages[0].author).toBe(keyId);
    // The REST read labels the --model answer a model's: generated, spoken by model:<provider/id>.
    const fromModel = room.messages.find((m: { text: string }) => m.text === 'Mostly.');
    expect([fromModel.origin, fromModel.speaker]).toEqual(['node-generated', 'model:openai/gpt-5']);
    const modelJoin = room.participants.find((p: { id: string }) => p.id === fromModel.author);
    expect(modelJoin.models).toEqual(['openai/gpt-5']);

    // Not the asker: refused, nothing written.
    const denied = await db8('b', ['swarm', 'close', qid, '--key', keyFile, '--role', 'asker']);
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/^db8: /);

    const sum = JSON.parse(
      await ok('a', [
        'swarm',
        'summarize',
        qid,
        '--fact',
        'RFC 8785 fixes number form',
        '--hypothesis',
        'NFC matters',
        '--recommendation',
        'normalise first',
        '--uncertainty',
        '0.3',
        '--final',
        '--json',
      ]),
    );
    expect(sum.status).toBe('applied');
    const sid = await until('summary on A', async () => {
      const r = await A.call('GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`);
      return r.json.room.summaries[0]?.id as string | undefined;
    });
    await ok('a', ['swarm', 'close', qid, '--accept', sid]);

    await until('closed on B', async () => {
      const r = await B.call('GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`);
      return r.json.room.status === 'closed';
    });
    const watched = await ok('b', ['swarm', 'watch', qid]);
    const lines = watched.trim().split('\n');
    expect(lines[0]).toMatch(/answer \[node-generated\] model:cli: Yes, with NFC strings\./);
    expect(lines).toContainEqual(
      expect.stringMatching(/ answer \[node-generated\] model:openai\/gpt-5: Mostly\.$/),
    );
    expect(lines.some((l) => l.includes(`summary ${sid} (asker, final, uncertainty 0.3)`))).toBe(true);
    expect(lines.at(-1)).toBe(`closed: accepted-answer (accepted ${sid})`);
  });

  it('asks a client-signed question with the user key; bad input is refused', async () => {
    const asked = JSON.parse(
      await ok('b', [
        'swarm',
        'ask',
        'Signed by me?',
        '--tag',
        'keys',
        '--scope',
        'global',
        '--key',
        keyFile,
        '--json',
      ]),
    );
    const r = await until('on A', async () => {
      const x = await A.call('GET', `/v1/swarm/questions/${encodeURIComponent(asked.question_id)}`);
      return x.status === 200 ? x.json.room : null;
    });
    expect(r.question.asker).toBe(keyId);

    const dup = await db8('b', [
      'swarm',
      'ask',
      'again',
      '--tag',
      'keys',
      '--scope',
      'global',
      '--key',
      keyFile,
      '--id',
      asked.question_id,
    ]);
    expect(dup.status).not.toBe(0);
    expect(dup.stderr).toMatch(/REPLAYED/);
    const bad = await db8('b', ['swarm', 'summarize', asked.question_id, '--uncertainty', '2']);
    expect(bad.status).not.toBe(0);
    const noKey = await db8('b', ['swarm', 'ask', 'x', '--tag', 't', '--key', join(dir, 'missing')]);
    expect(noKey.stderr).toMatch(/cannot read/);
  });

  it('delegates the secretary role as the asker; a participant takes it over once the asker lapsed', async () => {
    const room = async (qid: string) =>
      (await A.call('GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`)).json.room;
    const ask = async (text: string) =>
      JSON.parse(await ok('a', ['swarm', 'ask', text, '--tag', 'sec', '--scope', 'global', '--json']))
        .question_id as string;

    // Delegation: B's admin answers (joins), A's asker names it secretary, allowed to close.
    const q1 = await ask('Who keeps the minutes?');
    await until(
      'q1 on B',
      async () => (await B.call('GET', `/v1/swarm/questions/${encodeURIComponent(q1)}`)).status === 200,
    );
    await ok('b', ['swarm', 'answer', q1, 'I can.', '--origin', 'node-generated']);
    const bMe = (await B.call('GET', '/v1/swarm/node')).json.participant_id as string;
    await until('B joined on A', async () =>
      (await room(q1)).participants.some((p: { id: string }) => p.id === bMe),
    );
    // Only the asker delegates: B trying is refused and writes nothing.
    const notAsker = await db8('b', ['swarm', 'delegate', q1, bMe]);
    expect(notAsker.status).not.toBe(0);
    expect(notAsker.stderr).toMatch(/NOT_ASKER/);
    const d = JSON.parse(await ok('a', ['swarm', 'delegate', q1, bMe, '--close-allowed', '--json']));
    expect(d.status).toBe('applied');
    expect((await room(q1)).secretary).toMatchObject({
      participant: bMe,
      node: 'node:b',
      via: 'delegation',
      closeAllowed: true,
    });

    // Takeover: the user's key answers through B; the asker falls silent; its takeover is folded once
    // the lapse has passed in stream time (before it, ASKER_PRESENT, and nothing is written).
    const q2 = await ask('Who steps in?');
    await until(
      'q2 on B',
      async () => (await B.call('GET', `/v1/swarm/questions/${encodeURIComponent(q2)}`)).status === 200,
    );
    await ok('b', ['swarm', 'answer', q2, 'Me, if need be.', '--key', keyFile, '--origin', 'node-generated']);
    await expect
      .poll(async () => {
        const r = await db8('b', ['swarm', 'takeover', q2, '--key', keyFile, '--json']);
        return r.status === 0 ? JSON.parse(r.stdout).status : r.stderr.match(/ASKER_PRESENT/)?.[0];
      })
      .toBe('applied');
    await until('secretary on A', async () => (await room(q2)).secretary?.participant === keyId);
    expect((await room(q2)).secretary).toMatchObject({ participant: keyId, via: 'lapse' });
    // Once more is refused: the signer is the secretary now, no longer a participant who may take over.
    const again = await db8('b', ['swarm', 'takeover', q2, '--key', keyFile]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/NOT_ADMITTED/);
  });
});
