import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link in README.md and docs/*.md names a file that exists and, with a #fragment, a
// heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens).

const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

/** The text outside fenced code blocks: a `[x](y)` or `# x` inside one is not a link or heading. */
const prose = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file; a repeated heading gets -1, -2… as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** `file → [target]` for every relative link (no scheme, no mailto). */
function linksOf(file: string): string[] {
  const text = prose(readFileSync(file, 'utf8')).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z+.-]*:/i.test(t));
}

describe('documentation links', () => {
  it('computes anchors as GitHub does', () => {
    expect([
      ...anchorsOf('# A `db8 replay <room|bundle>`\n## Submissions (seed §3, §5)\n## x\n## x\n'),
    ]).toEqual(['a-db8-replay-roombundle', 'submissions-seed-3-5', 'x', 'x-1']);
    expect(anchorsOf('```sh\n# not a heading\n```\n').size).toBe(0);
  });

  it.each(DOCS)('%s: every relative link resolves', (file) => {
    const broken: string[] = [];
    for (const target of linksOf(file)) {
      const [path, fragment] = target.split('#', 2) as [string, string | undefined];
      const resolved = path ? normalize(join(dirname(file), path)) : file;
      if (!existsSync(resolved)) broken.push(`${target} (no file ${resolved})`);
      else if (fragment !== undefined && resolved.endsWith('.md')) {
        if (!anchorsOf(readFileSync(resolved, 'utf8')).has(fragment)) broken.push(`${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
