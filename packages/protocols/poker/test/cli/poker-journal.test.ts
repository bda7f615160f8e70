// `db8 poker simulate --journal`: one file that both `db8 poker replay` and `db8 verify` accept,
// and that both refuse once an entry is changed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'db8-poker-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const db8 = (args: string[]) => spawnDb8(args, dir);

/** The journal with line `i` rewritten by `edit`, saved under `name`. */
function tampered(lines: string[], i: number, edit: (l: string) => string, name: string): string {
  const copy = lines.slice();
  const before = copy[i]!;
  copy[i] = edit(before);
  expect(copy[i]).not.toBe(before);
  const file = join(dir, name);
  writeFileSync(file, `${copy.join('\n')}\n`);
  return file;
}

describe('db8 poker simulate --journal', () => {
  it('writes a journal bundle that replays and verifies; a changed entry fails both', {
    timeout: 180_000,
  }, async () => {
    const journal = join(dir, 'journal.jsonl');
    const sim = await db8([
      'poker',
      'simulate',
      '--agents',
      'station,random',
      '--hands',
      '12',
      '--seed',
      '7',
      '--journal',
      journal,
      '--json',
    ]);
    expect(sim.status, sim.stderr).toBe(0);
    expect(JSON.parse(sim.stdout)).toMatchObject({ hands: 12, chipsConserved: true, replayOk: true });

    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'db8-journal',
      protocol: 'poker',
      viewer_class: 'admin',
    });

    const rep = await db8(['poker', 'replay', '--json', journal]);
    expect(rep.status, rep.stderr).toBe(0);
    const report = JSON.parse(rep.stdout);
    expect(report).toMatchObject({ ok: true, format: 'journal', hands: 12, problems: [] });
    expect(report.entries).toBe(lines.filter((l) => JSON.parse(l).type === 'entry').length);

    const ver = await db8(['verify', journal]);
    expect(ver.status, ver.stderr).toBe(0);
    expect(ver.stdout).toMatch(/^ok .*admin bundle/);

    // A call turned into an illegal raise: replay names the seq, the bundle's leaf hash no longer holds.
    const call = lines.findIndex((l) => l.includes('"kind":"action","payload":{"kind":"call"}'));
    expect(call).toBeGreaterThan(0);
    const seq = JSON.parse(lines[call]!).entry.seq;
    const raised = tampered(
      lines,
      call,
      (l) => l.replace('"payload":{"kind":"call"}', '"payload":{"amount":1,"kind":"raiseTo"}'),
      'raised.jsonl',
    );
    const noRep = await db8(['poker', 'replay', raised]);
    expect(noRep.status).toBe(3);
    expect(noRep.stderr).toContain(`diverges at seq ${seq}`);
    const noVer = await db8(['verify', raised]);
    expect(noVer.status).toBe(3);
    expect(noVer.stderr).toContain(`entry ${seq} (line ${call + 1}): LEAF_MISMATCH`);

    // A revealed salt changed: the refold recomputes every note (core's foldEntry) and refuses it.
    const reveal = lines.findIndex((l) => /"note":\{[^}]*"salt":"[0-9a-f]/.test(l));
    expect(reveal).toBeGreaterThan(0);
    const salted = tampered(
      lines,
      reveal,
      (l) =>
        l.replace(
          /("note":\{[^}]*"salt":")([0-9a-f])/,
          (_m, a: string, c: string) => `${a}${c === '0' ? '1' : '0'}`,
        ),
      'salted.jsonl',
    );
    const saltRep = await db8(['poker', 'replay', '--json', salted]);
    expect(saltRep.status).toBe(3);
    const saltReport = JSON.parse(saltRep.stdout);
    expect(saltReport.ok).toBe(false);
    expect(saltReport.problems.join('\n')).toMatch(
      /stored note differs from the one the protocol recomputes/,
    );
    expect((await db8(['verify', salted])).status).toBe(3);
  });
});
