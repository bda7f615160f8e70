import { createHash } from 'node:crypto';
import type { BridgeEvent } from './bridge.ts';

/**
 * The IRC bridge's pure parts: the channel a question maps to, and the text lines an event becomes,
 * split to fit one IRC line each (512 bytes with CRLF, RFC 1459/2812).
 */

/** IRC's hard limit on one line, CRLF included. */
export const IRC_LINE_BYTES = 512;
/**
 * Room left for the `:nick!user@host ` prefix the server adds when it relays our line to others:
 * nick ≤ 20, user ≤ 11 (with `~`), host ≤ 63, and separators. Without it a receiver's copy could be
 * cut at 512.
 */
export const PREFIX_RESERVE = 100;

/**
 * `#swarm-<slug>-<12 hex of sha256(question id)>`. The slug (≤ 20 of `[a-z0-9-]`, from the id
 * without a leading `question:`) is for people; the hash makes the mapping injective in practice
 * (48 bits) even though IRC folds case and the slug drops characters. The result never holds a
 * space, comma, colon or control character and is at most 40 characters.
 */
export function channelOf(questionId: string): string {
  const slug = questionId
    .replace(/^question:/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(questionId, 'utf8').digest('hex').slice(0, 12);
  return `#swarm-${slug ? `${slug}-` : ''}${hash}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/**
 * The one place an IRC line is put together: every part that reaches the wire — the command, each
 * middle parameter and the trailing one — goes through here. Each is stripped of CR, LF and NUL
 * (and the other C0 controls and DEL, so no field starts a CTCP request or a colour code): a
 * question's tags, the asker's node id or an answer's speaker holding `\r\nQUIT` made the bridge
 * message a chosen nick, join a chosen channel and quit. Middle parameters also lose spaces and a
 * leading `:` (either would shift the parameters). Replacing keeps a line's byte length.
 */
export function ircLine(command: string, params: readonly string[] = [], trailing?: string): string {
  const middle = params.map((p) => p.replace(CONTROLS, ' ').replace(/ /g, '_').replace(/^:/, '_'));
  const head = [command.replace(CONTROLS, '').replace(/ /g, ''), ...middle].join(' ');
  return trailing === undefined ? head : `${head} :${trailing.replace(CONTROLS, ' ')}`;
}

/** The bytes a PRIVMSG to `channel` may carry in its text so that every relayed copy fits. */
export function textBudget(channel: string): number {
  return IRC_LINE_BYTES - 2 - Buffer.byteLength(`PRIVMSG ${channel} :`) - PREFIX_RESERVE;
}

/**
 * Control characters (C0, DEL) become spaces: a relayed text can neither end an IRC line (CR, LF,
 * NUL) nor start a CTCP request (^A). Line breaks split the text into separate lines.
 */
export function cleanLines(text: string): string[] {
  return (
    text
      .split(/\r\n|\r|\n/)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .map((l) => l.replace(/[\u0000-\u001f\u007f]/g, ' ').trimEnd())
      .filter((l) => l.trim() !== '')
  );
}

/**
 * Splits `text` into pieces of at most `maxBytes` UTF-8 bytes, never inside a code point. It cuts at
 * the last space when that keeps at least half a piece (the space is dropped: servers strip trailing
 * spaces), else hard at the budget. `laterMax` bounds the pieces after the first.
 */
export function splitUtf8(text: string, maxBytes: number, laterMax = maxBytes): string[] {
  if (Math.min(maxBytes, laterMax) < 4) throw new Error('budget below one code point');
  const out: string[] = [];
  let rest = text;
  for (;;) {
    const max = out.length === 0 ? maxBytes : laterMax;
    if (Buffer.byteLength(rest) <= max) break;
    let bytes = 0;
    let cut = 0;
    for (const ch of rest) {
      const n = Buffer.byteLength(ch);
      if (bytes + n > max) break;
      bytes += n;
      cut += ch.length; // 2 for a surrogate pair: the iterator walks code points
    }
    const space = rest.lastIndexOf(' ', cut);
    if (space > 0 && Buffer.byteLength(rest.slice(0, space)) >= max / 2) {
      out.push(rest.slice(0, space));
      rest = rest.slice(space + 1);
    } else {
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
  }
  if (rest !== '') out.push(rest);
  return out;
}

/** Continuation pieces of one logical line start with this. */
export const CONTINUED = '… ';

/** One logical line (header + body) as IRC lines: pieces after the first start with CONTINUED. */
export function wrap(line: string, budget: number): string[] {
  const pieces = splitUtf8(line, budget, budget - Buffer.byteLength(CONTINUED));
  return pieces.map((p, i) => (i === 0 ? p : CONTINUED + p));
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The logical lines (before splitting) an event posts to its channel; `open` also posts. */
export function linesOf(e: BridgeEvent): string[] {
  switch (e.kind) {
    case 'open': {
      const q = e.question;
      if (e.resumed)
        return [`[relay resumed] question ${q.id} (${q.scope}) answers until ${iso(q.deadline)}`];
      const tags = q.tags.length ? `; tags ${q.tags.join(', ')}` : '';
      return [
        `[question] ${q.id} (${q.scope}${tags}) from ${q.askerNode}: ${cleanLines(q.text).join(' / ')}`,
        `[room] answers until ${iso(q.deadline)}. Observer relay from db8: lines said here are not taken into the room.`,
      ];
    }
    case 'message': {
      const m = e.message;
      const [first = '', ...more] = cleanLines(m.text);
      return [`[${m.kind}] ${m.speaker} (${m.origin} via ${m.gateway}): ${first}`, ...more];
    }
    case 'summary': {
      const s = e.summary;
      const list = (label: string, xs: string[]) =>
        xs.length ? [`  ${label}: ${xs.flatMap(cleanLines).join(' | ')}`] : [];
      return [
        `[summary ${s.status}] by ${s.role} ${s.author} (uncertainty ${s.uncertainty})`,
        ...list('facts', s.facts),
        ...list('hypotheses', s.hypotheses),
        ...list('recommendations', s.recommendations),
      ];
    }
    case 'close': {
      if (e.status === 'expired') return ['[close] expired at its deadline'];
      const c = e.close;
      if (!c) return ['[close] closed'];
      const accepted = c.acceptedSummary ? `, accepted summary ${c.acceptedSummary}` : '';
      return [`[close] ${c.resolution} by ${c.role}${c.by ? ` ${c.by}` : ''}${accepted}`];
    }
  }
}
