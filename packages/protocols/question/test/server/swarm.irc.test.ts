// The IRC bridge's pure parts: channel mapping, line splitting, server-line parsing, nick fallback,
// and the env settings.
import { describe, expect, it } from 'vitest';
import { IrcBridge, ircOptions } from '../../server/bridges/irc.ts';
import { fallbackNick, parseLine } from '../../server/bridges/irc-client.ts';
import {
  CONTINUED,
  channelOf,
  cleanLines,
  IRC_LINE_BYTES,
  ircLine,
  PREFIX_RESERVE,
  splitUtf8,
  textBudget,
  wrap,
} from '../../server/bridges/irc-lines.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear.
const VALID_CHANNEL = /^#[^\s,:\u0000-\u001f\u007f]{1,49}$/;

describe('ircLine: the one line builder', () => {
  it('strips CR, LF, NUL and other controls from every part and keeps middle params one word', () => {
    const evil = 'a\r\nQUIT :bye\u0000\u0001ACTION';
    const line = ircLine('PRIVMSG', ['#c', evil], evil);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear.
    expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(line.split(' :')[0]?.split(' ')).toHaveLength(3);
    expect(line).toBe('PRIVMSG #c a__QUIT_:bye__ACTION :a  QUIT :bye  ACTION');
    expect(ircLine('JOIN', [':#x'])).toBe('JOIN _#x');
    expect(ircLine('PONG', [], 'irc.db8.test')).toBe('PONG :irc.db8.test');
  });
});

describe('channelOf', () => {
  it('maps any question id to a valid, deterministic channel', () => {
    const ids = [
      'question:01K0ABCDEF',
      'question:with spaces, commas:colons\u0007bell',
      `question:${'x'.repeat(500)}`,
      'ÜBER-frage 日本語 🙂',
      ':::',
      '',
    ];
    for (const id of ids) {
      const ch = channelOf(id);
      expect(ch, id).toMatch(VALID_CHANNEL);
      expect(ch.length).toBeLessThanOrEqual(40);
      expect(channelOf(id)).toBe(ch);
    }
    expect(channelOf('question:01K0ABCDEF')).toMatch(/^#swarm-01k0abcdef-[0-9a-f]{12}$/);
  });

  it('keeps ids that differ only in case or dropped characters apart', () => {
    expect(channelOf('question:Abc')).not.toBe(channelOf('question:abc'));
    expect(channelOf('question:a b')).not.toBe(channelOf('question:a-b'));
  });
});

describe('splitting', () => {
  it('cuts multibyte text without spaces at code points, each piece within budget', () => {
    const text = 'zażółć日本語🙂'.repeat(60);
    const pieces = splitUtf8(text, 100);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(100);
      expect(p).not.toMatch(/\uFFFD/);
      // A lone surrogate would mean a code point was cut in half.
      expect(p).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(pieces.join('')).toBe(text);
  });

  it('prefers word boundaries, dropping the space there', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}-ünï`);
    const pieces = splitUtf8(words.join(' '), 60);
    for (const p of pieces) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(60);
    expect(pieces.join(' ')).toBe(words.join(' '));
  });

  it('wraps a logical line into IRC lines that fit 512 bytes with the relay prefix', () => {
    const ch = channelOf('question:long');
    const budget = textBudget(ch);
    const line = `[answer] model:x (node-generated via node:a): ${'ab 🙂 '.repeat(300)}`;
    const lines = wrap(line, budget);
    expect(lines.length).toBeGreaterThan(3);
    for (const [i, l] of lines.entries()) {
      const wire = Buffer.byteLength(`PRIVMSG ${ch} :${l}\r\n`);
      expect(wire + PREFIX_RESERVE).toBeLessThanOrEqual(IRC_LINE_BYTES);
      expect(l.startsWith(CONTINUED)).toBe(i > 0);
    }
  });

  it('turns control characters into spaces and line breaks into lines', () => {
    expect(cleanLines('a\u0001b\r\nc\0d\n\n e \u0007')).toEqual(['a b', 'c d', ' e']);
  });
});

describe('IRC protocol helpers', () => {
  it('parses prefix, command and trailing parameter', () => {
    expect(parseLine(':irc.test 433 * db8swarm :Nickname already in use')).toEqual({
      prefix: 'irc.test',
      command: '433',
      params: ['*', 'db8swarm', 'Nickname already in use'],
    });
    expect(parseLine('PING :abc def')).toEqual({ prefix: '', command: 'PING', params: ['abc def'] });
    expect(parseLine(':only-prefix')).toBeNull();
  });

  it('falls back to nicks within nine characters', () => {
    expect(fallbackNick('db8swarm', 1)).toBe('db8swarm_');
    expect(fallbackNick('db8swarm', 2)).toBe('db8swarm2');
    expect(fallbackNick('db8swarmer', 12)).toBe('db8swar12');
  });
});

describe('settings', () => {
  it('is off without DB8_SWARM_IRC and reads host, port, nick and rate', () => {
    expect(ircOptions({})).toBeNull();
    expect(
      ircOptions({
        DB8_SWARM_IRC: 'irc://127.0.0.1:7000',
        DB8_SWARM_IRC_NICK: 'obs',
        DB8_SWARM_IRC_RATE: '2',
      }),
    ).toMatchObject({ host: '127.0.0.1', port: 7000, nick: 'obs', linesPerSec: 2 });
    expect(ircOptions({ DB8_SWARM_IRC: 'irc://irc.example.org' })).toMatchObject({
      port: 6667,
      nick: 'db8swarm',
    });
  });

  it('refuses TLS URLs, paths and bad nicks', () => {
    expect(() => ircOptions({ DB8_SWARM_IRC: 'ircs://h:6697' })).toThrow(/not supported/);
    expect(() => ircOptions({ DB8_SWARM_IRC: 'irc://h:6667/chan' })).toThrow(/no path/);
    expect(() => ircOptions({ DB8_SWARM_IRC: 'irc://h', DB8_SWARM_IRC_NICK: '9bad nick' })).toThrow(/nick/);
  });
});

describe('relay choice', () => {
  const question = (id: string, askerNode: string) => ({
    id,
    text: 'q?',
    tags: [],
    scope: 'federation-local',
    askerNode,
    asker: 'participant:x',
    createdAt: 0,
    deadline: 1,
    followUps: false,
    modelsRequire: [],
    modelsExclude: [],
    minReputation: null,
    languages: [],
  });
  const message = (roomId: string, questionId: string) =>
    ({
      kind: 'message',
      roomId,
      questionId,
      message: {
        seq: 1,
        id: 'm',
        at: 0,
        kind: 'answer',
        text: 'hi',
        author: 'a',
        origin: 'node-generated',
        speaker: 's',
        gateway: 'node:b',
        verdict: null,
      },
    }) as const;

  it('with asked, queues nothing for a question another node asked', () => {
    const opts = ircOptions({ DB8_SWARM_IRC: 'irc://127.0.0.1:1', DB8_SWARM_IRC_RELAY: 'asked' });
    const b = new IrcBridge(opts as NonNullable<typeof opts>, 'node:a', () => {});
    b.deliver({ kind: 'open', roomId: 'r1', question: question('q1', 'node:b'), resumed: false });
    b.deliver(message('r1', 'q1'));
    expect(b.client.pending).toBe(0);
    b.deliver({ kind: 'open', roomId: 'r2', question: question('q2', 'node:a'), resumed: false });
    b.deliver(message('r2', 'q2'));
    expect(b.client.pending).toBe(4); // JOIN, two question lines, the answer (not connected: queued)
  });

  it('with all (default), relays every room', () => {
    const opts = ircOptions({ DB8_SWARM_IRC: 'irc://127.0.0.1:1' });
    const b = new IrcBridge(opts as NonNullable<typeof opts>, 'node:a', () => {});
    b.deliver({ kind: 'open', roomId: 'r1', question: question('q1', 'node:b'), resumed: true });
    b.deliver(message('r1', 'q1'));
    expect(b.client.pending).toBe(3);
  });
});
