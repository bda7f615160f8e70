// Issue 10, IRC observer bridge: a db8 node with DB8_SWARM_IRC set, a real nats-server (JetStream)
// and a real ngircd. An independent raw IRC client watches the question's channel: the bridge joins
// when the question opens, relays answers with kind, speaker and origin class (a long one split into
// lines that fit 512 bytes), keeps relaying after ngircd is killed and restarted, posts the summary
// and the close and parts. What is said in the channel never enters the room.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519 } from '@db8/core';
import { JetStreamLog } from '@db8/server/src/bus/jetstream.ts';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { CONTINUED, channelOf } from '../../server/bridges/irc-lines.ts';
import { type Line, type Ngircd, ngircd, RawIrc } from './irc-server.ts';
import { NATS_URL, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const STREAM = `SWARM_IRC${RUN}`;
const QID = `question:irc${RUN}`;
const CHANNEL = channelOf(QID);
const NICK = 'db8irc';

const participant = (n: number) => {
  const seed = new Uint8Array(32).fill(n);
  return { seed, id: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
};
const PA = participant(41);
const PB = participant(42);

let n = 0;
function signed(p: { seed: Uint8Array; id: string }, type: string, fields: Record<string, unknown>) {
  n += 1;
  const body = {
    'schema/v': 1,
    type,
    'question/id': QID,
    'input/id': `irc-${RUN}-${n}`,
    'created-at': new Date().toISOString(),
    'sender/node-id': 'node:a',
    'sender/participant-id': p.id,
    'sender/federation-id': 'federation:local',
    ...fields,
  };
  return signObject(body, SIGNATURE_DOMAINS.room, p.seed);
}

let irc: Ngircd;
let server: RunningServer;
let admin: string;
let dataDir: string;
let watcher: RawIrc;
let squatter: RawIrc;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, json: await r.json() };
}
const input = (body: unknown) => call('POST', `/v1/swarm/questions/${encodeURIComponent(QID)}/inputs`, body);

/** The bridge's PRIVMSG texts in the channel, in order, from line index `from`. */
const said = (from = 0): Line[] =>
  watcher.lines
    .slice(from)
    .filter((l) => l.command === 'PRIVMSG' && l.params[0] === CHANNEL && l.prefix.startsWith('db8irc'));

beforeAll(async () => {
  irc = await ngircd();
  // Someone already holds the bridge's nick: the bridge must fall back (433).
  squatter = new RawIrc(irc.port, NICK);
  await squatter.connect();
  watcher = new RawIrc(irc.port, 'watcher');
  await watcher.connect();
  watcher.send(`JOIN ${CHANNEL}`);
  await watcher.waitFor('own join', (l) => l.command === 'JOIN' && l.prefix.startsWith('watcher!'));

  dataDir = mkdtempSync(join(tmpdir(), 'db8-swarm-irc-'));
  server = await startServer({
    env: {
      DB8_SWARM_NATS_URL: NATS_URL,
      DB8_SWARM_PREFIX: `i${RUN}.`,
      DB8_SWARM_STREAM: STREAM,
      DB8_SWARM_NODE_ID: 'node:a',
      DB8_SWARM_IRC: `irc://127.0.0.1:${irc.port}`,
      DB8_SWARM_IRC_NICK: NICK,
    },
    port: 0,
    dataDir,
    print: () => {},
    logLevel: 'silent',
  } as never);
  const token = new URL(server.adminLink as string).hash.replace('#token=', '');
  const login = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  admin = ((await login.json()) as { token: string }).token;
});

afterAll(async () => {
  watcher?.close();
  squatter?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await irc?.cleanup();
  const log = await JetStreamLog.connect(NATS_URL);
  await log.deleteStream(STREAM).catch(() => {});
  await log.close();
});

describe('IRC observer bridge', () => {
  it('joins, relays answers, survives an IRC server restart, posts summary and close, parts', async () => {
    // Nick collision: the bridge registered under the fallback nick.
    await until('bridge online as db8irc_', async () => {
      const from = watcher.lines.length;
      watcher.send(`ISON ${NICK}_`);
      const r = await watcher.waitFor('ISON', (l) => l.command === '303', 3000, from).catch(() => null);
      return r?.params.at(-1)?.trim() === `${NICK}_`;
    });

    const ask = await call('POST', '/v1/swarm/questions', {
      ask: {
        text: 'How should IRC observe a room?',
        tags: ['irc'],
        scope: 'federation-local',
        ttl_sec: 600,
        question_id: QID,
      },
    });
    expect(ask.status, JSON.stringify(ask.json)).toBe(201);

    const joined = await watcher.waitFor(
      'bridge JOIN',
      (l) => l.command === 'JOIN' && l.prefix.startsWith(`${NICK}_!`),
    );
    expect(joined.params[0]).toBe(CHANNEL);
    const question = await watcher.waitFor(
      'question line',
      (l) => l.command === 'PRIVMSG' && l.params[1]?.startsWith('[question]') === true,
    );
    expect(question.params[1]).toBe(
      `[question] ${QID} (federation-local; tags irc) from node:a: How should IRC observe a room?`,
    );

    const join = (p: typeof PA) =>
      signed(p, 'swarm/room-join', {
        'responder/models': ['model:test'],
        'responder/languages': ['en'],
        'responder/tags': ['irc'],
      });
    const answer = (p: typeof PA, text: string, origin: string, speaker: string) =>
      signed(p, 'swarm/room-message', {
        'message/kind': 'answer',
        'message/text': text,
        'origin/class': origin,
        'origin/speaker': speaker,
        'origin/gateway': 'node:a',
      });
    for (const p of [PA, PB]) expect((await input({ input: join(p) })).json.status).toBe('applied');
    expect(
      (await input({ input: answer(PA, 'Relay every line.', 'node-generated', 'model:test') })).json.status,
    ).toBe('applied');
    expect(
      (await input({ input: answer(PB, 'As a person, I agree.', 'node-mediated-human', 'human:alice') })).json
        .status,
    ).toBe('applied');
    const words = Array.from({ length: 120 }, (_, i) => `słowo${i}-日本-🙂`);
    const long = words.join(' ');
    expect(Buffer.byteLength(long)).toBeGreaterThan(1500);
    expect((await input({ input: answer(PA, long, 'node-generated', 'model:test') })).json.status).toBe(
      'applied',
    );

    // What someone says in the channel is not an input: checked at the end against the room.
    watcher.send(`PRIVMSG ${CHANNEL} :please add this to the room`);

    await watcher.waitFor(
      'last piece of the long answer',
      (l) => l.params[1]?.endsWith(words.at(-1) as string) === true,
      60_000,
    );
    const texts = said().map((l) => l.params[1] as string);
    expect(texts).toContain('[answer] model:test (node-generated via node:a): Relay every line.');
    expect(texts).toContain('[answer] human:alice (node-mediated-human via node:a): As a person, I agree.');
    const first = texts.findIndex((t) =>
      t.startsWith('[answer] model:test (node-generated via node:a): słowo0-'),
    );
    expect(first).toBeGreaterThan(-1);
    const pieces = [texts[first] as string];
    for (const t of texts.slice(first + 1)) {
      if (!t.startsWith(CONTINUED)) break;
      pieces.push(t.slice(CONTINUED.length));
    }
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join(' ')).toBe(`[answer] model:test (node-generated via node:a): ${long}`);
    // Every copy the server relayed (with the bridge's prefix) fits one IRC line, CRLF included.
    for (const l of said()) expect(l.raw.length).toBeLessThanOrEqual(512);

    // Kill the IRC server and start it again on the same port, now PINGing clients after 5 s of
    // silence and dropping them 5 s later without a PONG (ngircd's minimum; not from the start: this
    // process is busy while the db8 server boots, and the test's own clients would time out).
    await irc.kill();
    await irc.start(5);
    watcher.close();
    squatter.close();
    watcher = new RawIrc(irc.port, 'watcher');
    await watcher.connect();
    watcher.send(`JOIN ${CHANNEL}`);
    // The squatter is gone: the bridge reconnects under its own nick and rejoins the channel.
    await until(
      'bridge back in the channel',
      async () => {
        const from = watcher.lines.length;
        watcher.send(`NAMES ${CHANNEL}`);
        const r = await watcher.waitFor('NAMES', (l) => l.command === '353', 2000, from).catch(() => null);
        return (
          r?.params
            .at(-1)
            ?.split(' ')
            .some((x) => x.replace(/^[@+]/, '') === NICK) ?? false
        );
      },
      40_000,
    );

    expect(
      (
        await input({
          input: answer(PB, 'Still here after the restart.', 'node-mediated-human', 'human:alice'),
        })
      ).json.status,
    ).toBe('applied');
    await watcher.waitFor(
      'answer after restart',
      (l) =>
        l.params[1] ===
          '[answer] human:alice (node-mediated-human via node:a): Still here after the restart.' &&
        l.prefix.startsWith(`${NICK}!`),
    );

    // Idle for 15 s: ngircd PINGs (the watcher sees its own) and would drop a bridge that did not PONG.
    const idle = watcher.lines.length;
    await new Promise((r) => setTimeout(r, 15_000));
    expect(watcher.lines.slice(idle).some((l) => l.command === 'PING')).toBe(true);
    expect(
      watcher.lines.slice(idle).filter((l) => l.command === 'QUIT' && l.prefix.startsWith(NICK)),
    ).toEqual([]);

    const summary = await input({
      draft: {
        type: 'swarm/question-summary',
        'summary/id': `summary-${RUN}`,
        'author/role': 'asker',
        status: 'final',
        'content/facts': ['Answers reach IRC.'],
        'content/hypotheses': [],
        'content/recommendations': ['Keep the bridge observer-only.'],
        'content/uncertainty': 0.25,
      },
    });
    expect(summary.json.status, JSON.stringify(summary.json)).toBe('applied');
    const close = await input({
      draft: {
        type: 'swarm/question-close',
        'closed-by/role': 'asker',
        resolution: 'accepted-answer',
        'accepted-summary/id': `summary-${RUN}`,
      },
    });
    expect(close.json.status, JSON.stringify(close.json)).toBe('applied');

    const part = await watcher.waitFor(
      'bridge PART',
      (l) => l.command === 'PART' && l.prefix.startsWith(`${NICK}!`),
    );
    expect(part.params[0]).toBe(CHANNEL);
    const after = said().map((l) => l.params[1] as string);
    const s = after.findIndex((t) => t.startsWith('[summary final] by asker '));
    expect(s).toBeGreaterThan(-1);
    expect(after[s]).toMatch(/\(uncertainty 0\.25\)$/);
    expect(after.slice(s + 1, s + 3)).toEqual([
      '  facts: Answers reach IRC.',
      '  recommendations: Keep the bridge observer-only.',
    ]);
    const closeLine = after.find((t) => t.startsWith('[close]'));
    expect(closeLine).toMatch(
      new RegExp(`^\\[close\\] accepted-answer by asker \\S+, accepted summary summary-${RUN}$`),
    );
    // The close came before the PART, in the channel's order.
    expect(watcher.lines.findIndex((l) => l.params[1] === closeLine)).toBeLessThan(
      watcher.lines.indexOf(part),
    );

    const room = await call('GET', `/v1/swarm/questions/${encodeURIComponent(QID)}`);
    expect(room.json.room.status).toBe('closed');
    const inRoom = room.json.room.messages.map((m: { text: string }) => m.text);
    expect(inRoom).toHaveLength(4);
    expect(inRoom.join('\n')).not.toContain('please add this to the room');
  });
});
