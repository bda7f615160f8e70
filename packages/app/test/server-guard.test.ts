import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinProtocols } from '../src/protocols.ts';
import { builtinModules } from '../src/server-modules.ts';

// The server's protocol boundary, like the web app's and the CLI's (their registry tests): one
// module per built-in protocol, and no file of the platform server (packages/server/src) names a
// protocol in its code. Comments may (they say why, often by example).

const SRC = fileURLToPath(new URL('../../server/src', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** The file's lines that are code: comment lines (`//`, `*`, `/*`, SQL's `--`) dropped. */
const codeOf = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*|--)/.test(l))
    .join('\n');

describe('server module registry', () => {
  it('registers each module once, for a protocol the rules package exports', () => {
    const names = builtinModules.map((m) => m.protocol.name);
    expect(new Set(names).size).toBe(names.length);
    const known = new Set(builtinProtocols.map((p) => p.name));
    for (const n of names) expect(known.has(n), n).toBe(true);
  });

  it('keeps protocol names out of the generic server', () => {
    const names = builtinProtocols.map((p) => p.name);
    const pattern = new RegExp(`\\b(${names.map((n) => n.replace('-', '\\-')).join('|')})\\b`, 'i');
    const generic = files(SRC);
    expect(generic.length).toBeGreaterThan(50);
    const hits = generic
      .filter((f) => pattern.test(codeOf(readFileSync(f, 'utf8'))))
      .map((f) => relative(SRC, f));
    expect(hits).toEqual([]);
  });
});
