import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import { describe, expect, it } from 'vitest';

// The server's protocol boundary, like the web app's and the CLI's (their registry tests): one
// module per protocol in the registry, and no generic file (everything outside src/protocols/)
// names a protocol in its code. Comments may (they say why, often by example).

const SRC = fileURLToPath(new URL('../src', import.meta.url));

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
    const generic = files(SRC).filter((f) => !relative(SRC, f).startsWith('protocols'));
    expect(generic.length).toBeGreaterThan(50);
    const hits = generic
      .filter((f) => pattern.test(codeOf(readFileSync(f, 'utf8'))))
      .map((f) => relative(SRC, f));
    expect(hits).toEqual([]);
  });
});
