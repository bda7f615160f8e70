import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinProtocols } from '@db8/protocols';
import { describe, expect, it } from 'vitest';
import { modules } from '../src/protocols/registry.ts';

// The web app's protocol boundary: one module per protocol in the registry, and no generic file
// (everything outside src/protocols/) names a protocol.

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('web module registry', () => {
  it('registers each module once, for a protocol the server knows', () => {
    const names = modules.map((m) => m.protocol);
    expect(new Set(names).size).toBe(names.length);
    const known = new Set(builtinProtocols.map((p) => p.name));
    for (const n of names) expect(known.has(n)).toBe(true);
  });

  it('keeps protocol names out of the generic app', () => {
    const names = builtinProtocols.map((p) => p.name);
    const pattern = new RegExp(`\\b(${names.map((n) => n.replace('-', '\\-')).join('|')})\\b`, 'i');
    const generic = files(SRC).filter((f) => !relative(SRC, f).startsWith('protocols'));
    expect(generic.length).toBeGreaterThan(10);
    const hits = generic.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(hits).toEqual([]);
  });

  it("scopes every rule of a module's stylesheet under its class", () => {
    for (const m of modules) {
      for (const f of files(join(SRC, 'protocols', m.protocol)).filter((x) => x.endsWith('.css'))) {
        const css = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
        // Every selector (text before `{` that is not an at-rule) starts with the module's scope.
        for (const prelude of css.match(/[^{};]+(?=\{)/g) ?? []) {
          const sel = prelude.trim();
          if (sel.startsWith('@')) continue;
          for (const part of sel.split(','))
            expect(part.trim(), f).toMatch(new RegExp(`^\\.mod-${m.protocol}\\s`));
        }
      }
    }
  });
});
