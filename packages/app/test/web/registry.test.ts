import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinProtocols } from '../../src/protocols.ts';
import { webModules as modules } from '../../web/modules.ts';

const protocols = builtinProtocols;
const moduleFor = (name: string) => modules.find((m) => m.protocol === name);

/**
 * Protocols the lobby lists that may still fall back to the form generated from their config
 * schema, each with the reason. Only an entry here excuses a protocol from having its own form;
 * remove it in the change that gives the protocol its form (the test fails while it stays).
 */
const CREATE_FORM_PENDING: Record<string, string> = {};

// The web app's protocol boundary: one module per protocol in the registry, and no generic file
// (packages/web/src) names a protocol.

const SRC = fileURLToPath(new URL('../../../web/src', import.meta.url));
const PROTOCOLS = fileURLToPath(new URL('../../../protocols', import.meta.url));

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

  it('gives every protocol the lobby lists a create form of its own, unless excused with a reason', () => {
    const lacking = protocols
      .map((p) => p.name)
      .filter((name) => !moduleFor(name)?.CreateForm && !CREATE_FORM_PENDING[name]?.trim());
    // The generated form asks for raw schema values (a swarm question wanted a signed envelope).
    expect(lacking).toEqual([]);
    // An excuse names a protocol the lobby lists that still has no form: a stale one fails.
    const listed = new Set(protocols.map((p) => p.name));
    for (const name of Object.keys(CREATE_FORM_PENDING)) {
      expect(listed.has(name), name).toBe(true);
      expect(moduleFor(name)?.CreateForm, `${name} has a form now: drop its exception`).toBeUndefined();
    }
  });

  it('keeps protocol names out of the generic app', () => {
    const names = builtinProtocols.map((p) => p.name);
    const pattern = new RegExp(`\\b(${names.map((n) => n.replace('-', '\\-')).join('|')})\\b`, 'i');
    const generic = files(SRC);
    expect(generic.length).toBeGreaterThan(10);
    const hits = generic.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(hits).toEqual([]);
  });

  it("scopes every rule of a module's stylesheet under its class", () => {
    for (const m of modules) {
      for (const f of files(join(PROTOCOLS, m.protocol, 'web')).filter((x) => x.endsWith('.css'))) {
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
