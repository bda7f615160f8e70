// `db8 canon` and `db8 hash`, run as a user would: spawned `node packages/app/bin/db8.js …`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformancePath } from '../../../test/conformance.ts';
import { BIN } from './helpers.ts';

const JCS = conformancePath('jcs');
const dir = mkdtempSync(join(tmpdir(), 'db8-canon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jcs(sub: string, name: string): string {
  if (!existsSync(join(JCS, 'input'))) {
    throw new Error(`RFC 8785 conformance data missing: expected ${JCS}/input (test/conformance/jcs)`);
  }
  return join(JCS, sub, name);
}

function db8(args: string[], input?: string | Uint8Array) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, cwd: dir });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout as Buffer, stderr: r.stderr.toString('utf8') };
}

function file(name: string, content: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Failures are one `db8: …` line on stderr, no stack trace, nothing on stdout. */
function expectFailure(r: ReturnType<typeof db8>, status: number, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(status);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^db8: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout.length).toBe(0);
}

describe('db8 canon', () => {
  it('prints the RFC 8785 form of a file, byte for byte, with no trailing newline', () => {
    const r = db8(['canon', jcs('input', 'weird.json')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(new Uint8Array(r.stdout)).toEqual(new Uint8Array(readFileSync(jcs('output', 'weird.json'))));
  });

  it('reads stdin with - and with no argument', () => {
    const input = readFileSync(jcs('input', 'values.json'));
    const want = readFileSync(jcs('output', 'values.json'), 'utf8');
    expect(db8(['canon', '-'], input).stdout.toString('utf8')).toBe(want);
    expect(db8(['canon'], input).stdout.toString('utf8')).toBe(want);
  });

  it('rejects a duplicate key with exit 2, naming input, path and offset', () => {
    const p = file('dup.json', '{\n  "a": {"x": 1, "x": 2}\n}');
    expectFailure(
      db8(['canon', p]),
      2,
      /dup\.json: duplicate key "x" at \$\.a\.x \(offset 18, line 2 column 17\)/,
    );
  });

  it('rejects other invalid input with exit 2', () => {
    expectFailure(db8(['canon', '-'], '[9007199254740993]'), 2, /<stdin>: .*beyond/);
    expectFailure(db8(['canon', '-'], '"\\ud800"'), 2, /lone|surrogate/);
    expectFailure(db8(['canon', '-'], '{"a":1} trailing'), 2, /after the JSON value/);
    expectFailure(db8(['canon', '-'], ''), 2, /end of input/);
    expectFailure(db8(['canon', '-'], new Uint8Array([0x22, 0xff, 0x22])), 2, /not valid UTF-8/);
  });

  it('reports unreadable input with exit 4', () => {
    expectFailure(db8(['canon', join(dir, 'missing.json')]), 4, /cannot read .*missing\.json: .*ENOENT/);
    expectFailure(db8(['canon', dir]), 4, /EISDIR/);
  });

  it('reports a closed stdout pipe as one line and exit 4, not a crash', async () => {
    const big = file(
      'big.json',
      JSON.stringify(Array.from({ length: 200_000 }, (_, k) => ({ k, s: 'x'.repeat(20) }))),
    );
    const child = spawn(process.execPath, [BIN, 'canon', big], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader goes away, as with `db8 canon big.json | head -c 1`
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const status = await new Promise<number | null>((done) => child.on('close', done));
    expect(status, stderr).toBe(4);
    expect(stderr).toMatch(/^db8: cannot write to stdout: .*EPIPE\n$/);
  });

  it('exits 1 on a usage error', () => {
    const r = db8(['canon', '--no-such-option']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("db8: unknown option '--no-such-option' (add --help for usage)\n");
    const missing = db8(['export']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("db8: missing required argument 'room' (add --help for usage)\n");
    const unknown = db8(['frobnicate']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^db8: unknown command 'frobnicate' \(add --help for usage\)\n$/);
  });
});

describe('db8 hash', () => {
  it('prints sha256 hex of the canonical bytes and a newline', () => {
    const canonical = readFileSync(jcs('output', 'structures.json'));
    const want = `${createHash('sha256').update(canonical).digest('hex')}\n`;
    const r = db8(['hash', jcs('input', 'structures.json')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.toString('utf8')).toBe(want);
  });

  it('ignores key order and whitespace, not values', () => {
    const a = db8(['hash', '-'], '{"b": [1, 2.0], "a": "x"}').stdout.toString();
    const b = db8(['hash', '-'], '{"a":"x","b":[1,2]}').stdout.toString();
    const c = db8(['hash', '-'], '{"a":"x","b":[1,3]}').stdout.toString();
    expect(a).toMatch(/^[0-9a-f]{64}\n$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('fails like canon on bad input', () => {
    expectFailure(db8(['hash', '-'], '{"a":1,"a":1}'), 2, /duplicate key "a"/);
  });
});
