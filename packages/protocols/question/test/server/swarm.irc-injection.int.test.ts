// Issue 23, "IRC bridge: command injection": every field of a room that reaches an IRC line — the
// question's id, text, scope and tags, the asker's node, an answer's speaker, gateway and text, a
// summary's author, role, status and items, a close's resolution, closer and accepted summary —
// is stripped of CR, LF and NUL at the one line builder (ircLine). Against a real ngircd: for each
// field an event carrying `\r\nPRIVMSG victim :…\r\nJOIN #evil\r\nQUIT` is relayed; the victim
// gets no message, the bridge joins no other channel and never quits, and the payload arrives as
// text inside the relayed line.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionFacts } from '../../rules/index.ts';
import type { BridgeEvent } from '../../server/bridges/bridge.ts';
import { IrcBridge } from '../../server/bridges/irc.ts';
import { IRC_DEFAULTS } from '../../server/bridges/irc-client.ts';
import { channelOf } from '../../server/bridges/irc-lines.ts';
import { type Ngircd, ngircd, RawIrc } from './irc-server.ts';
import { until } from './swarm-node.ts';

const RUN = randomBytes(3).toString('hex');
const NICK = 'db8inj';
const EVIL = '#evil';
const payload = (n: string) => `x\r\nPRIVMSG victim :pwned-${n}\r\nJOIN ${EVIL}\r\nQUIT :bye\u0000y`;

let irc: Ngircd;
let watcher: RawIrc;
let victim: RawIrc;
let bridge: IrcBridge;

beforeAll(async () => {
  irc = await ngircd();
  victim = new RawIrc(irc.port, 'victim');
  await victim.connect();
  watcher = new RawIrc(irc.port, 'watcher');
  await watcher.connect();
  bridge = new IrcBridge(
    {
      ...IRC_DEFAULTS,
      host: '127.0.0.1',
      port: irc.port,
      nick: NICK,
      linesPerSec: 20,
      burst: 10,
      relay: 'all',
    },
    'node:a',
    () => {},
  );
  bridge.start();
  await until('the bridge registers', async () => bridge.client.registered, 20_000);
});
afterAll(async () => {
  await bridge?.stop();
  victim?.close();
  watcher?.close();
  await irc?.cleanup();
});

function facts(id: string, over: Partial<QuestionFacts> = {}): QuestionFacts {
  return {
    id,
    text: 'What breaks an IRC line?',
    tags: ['t'],
    scope: 'global',
    askerNode: 'node:a',
    asker: 'participant:did:key:z6Mk',
    createdAt: Date.now(),
    deadline: Date.now() + 60_000,
    followUps: true,
    modelsRequire: [],
    modelsExclude: [],
    minReputation: null,
    languages: [],
    ...over,
  };
}

const message = (over: Record<string, string>) => ({
  seq: 1,
  id: 'm1',
  at: Date.now(),
  kind: 'answer' as const,
  text: 'an answer',
  author: 'participant:did:key:z6Mk',
  origin: 'node-generated' as const,
  speaker: 'model:x',
  gateway: 'node:b',
  verdict: null,
  ...over,
});
const summary = (over: Record<string, unknown>) => ({
  seq: 2,
  id: 's1',
  at: Date.now(),
  author: 'participant:did:key:z6Mk',
  role: 'asker' as const,
  status: 'final' as const,
  facts: ['a fact'],
  hypotheses: [],
  recommendations: [],
  uncertainty: 0.2,
  ...over,
});
const close = (over: Record<string, unknown>) => ({
  resolution: 'accepted-answer',
  by: 'participant:did:key:z6Mk',
  role: 'asker' as const,
  acceptedSummary: 's1',
  at: Date.now(),
  ...over,
});

/** Each field, and the events that carry the hostile value in it (after the room's opening). */
type Case = [string, (p: string) => Partial<QuestionFacts>, (qid: string, p: string) => BridgeEvent[]];
const none = () => [];
const CASES: Case[] = [
  ['question id', () => ({}), none],
  ['question text', (p) => ({ text: p }), none],
  ['scope', (p) => ({ scope: p }), none],
  ['tags', (p) => ({ tags: ['ok', p] }), none],
  ['asker node', (p) => ({ askerNode: p }), none],
  [
    'answer speaker',
    () => ({}),
    (q, p) => [{ kind: 'message', roomId: q, questionId: q, message: message({ speaker: p }) }],
  ],
  [
    'answer gateway',
    () => ({}),
    (q, p) => [{ kind: 'message', roomId: q, questionId: q, message: message({ gateway: p }) }],
  ],
  [
    'answer origin',
    () => ({}),
    (q, p) => [{ kind: 'message', roomId: q, questionId: q, message: message({ origin: p }) }],
  ],
  [
    'answer kind',
    () => ({}),
    (q, p) => [{ kind: 'message', roomId: q, questionId: q, message: message({ kind: p }) }],
  ],
  [
    'answer text',
    () => ({}),
    (q, p) => [{ kind: 'message', roomId: q, questionId: q, message: message({ text: p }) }],
  ],
  [
    'summary author',
    () => ({}),
    (q, p) => [{ kind: 'summary', roomId: q, questionId: q, summary: summary({ author: p }) }],
  ],
  [
    'summary role',
    () => ({}),
    (q, p) => [{ kind: 'summary', roomId: q, questionId: q, summary: summary({ role: p }) }],
  ],
  [
    'summary status',
    () => ({}),
    (q, p) => [{ kind: 'summary', roomId: q, questionId: q, summary: summary({ status: p }) }],
  ],
  [
    'summary facts',
    () => ({}),
    (q, p) => [{ kind: 'summary', roomId: q, questionId: q, summary: summary({ facts: [p] }) }],
  ],
  [
    'summary uncertainty',
    () => ({}),
    (q, p) => [{ kind: 'summary', roomId: q, questionId: q, summary: summary({ uncertainty: p }) }],
  ],
  [
    'close resolution',
    () => ({}),
    (q, p) => [
      { kind: 'close', roomId: q, questionId: q, status: 'closed', close: close({ resolution: p }) },
    ],
  ],
  [
    'close closer',
    () => ({}),
    (q, p) => [{ kind: 'close', roomId: q, questionId: q, status: 'closed', close: close({ by: p }) }],
  ],
  [
    'close accepted summary',
    () => ({}),
    (q, p) => [
      { kind: 'close', roomId: q, questionId: q, status: 'closed', close: close({ acceptedSummary: p }) },
    ],
  ],
];

describe('IRC bridge: no command injection through any field (real ngircd)', () => {
  it.each(CASES)('%s', async (name, openWith, then) => {
    const tag = name.replace(/\W+/g, '');
    const p = payload(tag);
    const qid = name === 'question id' ? `question:${RUN}${p}` : `question:${RUN}-${tag}`;
    const channel = channelOf(qid);
    watcher.send(`JOIN ${channel}`);
    await watcher.waitFor(
      `watcher in ${channel}`,
      (l) => l.command === 'JOIN' && l.params[0] === channel && l.prefix.startsWith('watcher'),
    );
    const from = watcher.lines.length;
    const registrations = bridge.client.registrations;
    bridge.deliver({ kind: 'open', roomId: qid, question: facts(qid, openWith(p)), resumed: false });
    const events = then(qid, p);
    // Every case ends with the room's close, whose PART is the marker: once the watcher sees it,
    // every line before it was handled (and the bridge holds no more channels than ngircd allows).
    if (events.at(-1)?.kind !== 'close') {
      events.push({ kind: 'close', roomId: qid, questionId: qid, status: 'expired', close: null });
    }
    for (const e of events) bridge.deliver(e);
    await watcher.waitFor(
      `the bridge parts ${channel}`,
      (l) => l.command === 'PART' && l.params[0] === channel && l.prefix.startsWith(NICK),
      20_000,
      from,
    );
    watcher.send(`PART ${channel}`);
    // The payload arrived as text inside a relayed line, its line breaks gone.
    const relayed = watcher.lines
      .slice(from)
      .filter((l) => l.command === 'PRIVMSG' && l.params[0] === channel && l.prefix.startsWith(NICK));
    expect(relayed.some((l) => l.params.at(-1)?.includes(`PRIVMSG victim :pwned-${tag}`))).toBe(true);
    for (const l of relayed)
      expect(l.raw.subarray(0, -2).includes(0x0d) || l.raw.subarray(0, -2).includes(0x0a)).toBe(false);
    // Nothing reached the victim, the bridge is in no channel it was not sent to, and it never quit.
    expect(victim.lines.filter((l) => l.command === 'PRIVMSG' && l.prefix.startsWith(NICK))).toEqual([]);
    expect(
      watcher.lines.slice(from).filter((l) => l.command === 'QUIT' && l.prefix.startsWith(NICK)),
    ).toEqual([]);
    const whoisFrom = watcher.lines.length;
    watcher.send(`WHOIS ${NICK}`);
    await watcher.waitFor('whois end', (l) => l.command === '318', 10_000, whoisFrom);
    const chans = watcher.lines
      .slice(whoisFrom)
      .filter((l) => l.command === '319')
      .flatMap((l) => (l.params.at(-1) ?? '').split(' '));
    expect(chans.map((c) => c.replace(/^[@+]/, ''))).not.toContain(EVIL);
    expect(bridge.client.registrations).toBe(registrations);
  });
});
