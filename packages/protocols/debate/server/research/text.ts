/**
 * The text snapshot of a fetched page (docs/debate.md, "Research"): the body decoded with its
 * declared charset (UTF-8 otherwise); for HTML, the readable text — scripts, styles and markup
 * dropped, block elements on their own lines, entities decoded — and the <title>.
 */

/** The snapshot keeps at most this many characters of text. */
export const TEXT_MAX = 1_000_000;

export function decodeBody(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body); // an unknown charset label
  }
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  deg: '°',
  middot: '·',
  bull: '•',
  times: '×',
  euro: '€',
  pound: '£',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (m, name: string) => {
    if (name[0] === '#') {
      const cp =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    return NAMED[name.toLowerCase()] ?? m;
  });
}

const BLOCK =
  'address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul';

/** The readable text of an HTML document and its title. */
export function htmlText(html: string): { title: string | null; text: string } {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? decodeEntities(titleMatch[1]!).replace(/\s+/g, ' ').trim() || null : null;
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\s+/g, ' ') // source line breaks are spaces in HTML; block elements make the lines
    .replace(/<(script|style|noscript|template|svg|head|title|iframe|object)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(new RegExp(`<\\/?(?:${BLOCK})\\b[^>]*>`, 'gi'), '\n')
    .replace(/<[^>]*>/g, ' ');
  const lines = decodeEntities(text)
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return { title, text: lines.join('\n') };
}

/** The snapshot of a body of `mediaType`: its text (and title, for HTML). */
export function snapshotText(
  body: Buffer,
  contentType: string,
  mediaType: string,
): { title: string | null; text: string } {
  const raw = decodeBody(body, contentType);
  const out =
    mediaType === 'text/html' || mediaType === 'application/xhtml+xml'
      ? htmlText(raw)
      : { title: null, text: raw };
  return { title: out.title, text: out.text.slice(0, TEXT_MAX) };
}
