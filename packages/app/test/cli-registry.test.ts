// The CLI's protocol registry: every module's commands reach `db8 --help`, a module registers even
// without a place in the listing, and the generic CLI files name no protocol.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram, type CliModule, type Product } from '@db8/cli';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cliModules } from '../src/cli-modules.ts';
import { builtinProtocols } from '../src/protocols.ts';

/** The generic CLI's sources. */
const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'src');

/** The top-level command names a module adds, registered alone on an empty program. */
function commandsOf(m: CliModule): string[] {
  const p = new Command('db8');
  m.register(p);
  return p.commands.map((c) => c.name());
}

/** Command names listed under "Commands:" in a help text. */
function listed(help: string): string[] {
  const body = help.slice(help.indexOf('Commands:'));
  return [...body.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
}

describe('CLI protocol registry', () => {
  it('has one module per protocol, each adding commands', () => {
    const names = cliModules.map((m) => m.protocol);
    expect(new Set(names).size).toBe(names.length);
    for (const m of cliModules) expect(commandsOf(m).length, m.protocol).toBeGreaterThan(0);
  });

  it("lists every module's commands in db8 --help", async () => {
    const r = await spawnDb8(['--help'], src);
    expect(r.status, r.stderr).toBe(0);
    const shown = listed(r.stdout);
    for (const m of cliModules) {
      for (const name of commandsOf(m)) expect(shown, `${m.protocol}: ${name}`).toContain(name);
    }
  });

  it('places a module after the generic command it names, and registers one that names none', () => {
    const mod = (protocol: string, listAfter?: string): CliModule => ({
      protocol,
      register: (p) => void p.command(`x-${protocol}`),
      ...(listAfter ? { listAfter } : {}),
    });
    const product: Product = {
      protocols: [],
      cliModules: [mod('a', 'hash'), mod('b'), mod('c', 'no-such-command')],
      roomExamples: [],
      startServer: () => Promise.reject(new Error('not started here')),
    };
    const names = buildProgram(product).commands.map((c) => c.name());
    expect(names.indexOf('x-a')).toBe(names.indexOf('hash') + 1);
    expect(names.slice(-2)).toEqual(['x-b', 'x-c']);
  });

  it('keeps protocol names out of the generic CLI files', () => {
    const files = [
      ...readdirSync(src).filter((f) => f.endsWith('.ts')),
      ...readdirSync(join(src, 'commands')).map((f) => join('commands', f)),
    ];
    const names = new RegExp(`\\b(${builtinProtocols.map((p) => p.name).join('|')})\\b`, 'i');
    const offenders = files.filter((f) => names.test(readFileSync(join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
