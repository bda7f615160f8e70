// `db8 poker phh <dir>`, spawned as a user runs it, on files from the repository's PHH conformance copy
// (test/conformance/phh) plus a few written here. The whole corpus is replayed in-process by
// packages/protocols/poker/test/phh.test.ts; this checks the command: counts, lines, exit codes.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { conformancePath } from '../../../../../test/conformance.ts';

const CORPUS = conformancePath('phh');
const root = mkdtempSync(join(tmpdir(), 'db8-phh-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding these corpus files (same relative paths) and these written files. */
function folder(name: string, corpus: string[], written: Record<string, string> = {}): string {
  const dir = join(root, name);
  for (const f of corpus) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(CORPUS, f), join(dir, f));
  }
  for (const [f, text] of Object.entries(written)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const MATCHING = ['pluribus/100/33.phh', 'pluribus/100/61.phh', 'wsop/2023/43/5/00-02-07.phh'];
/** A Pluribus split pot whose file records x.5 halves: integer chips cannot end there. */
const HALVES = 'pluribus/102/0.phh';
/** HandHQ hands carry no finishing_stacks. */
const NO_FINISH = 'handhq/ps_1000nl/9.phh';

const nt = (stacks: string, actions: string, finish: string) =>
  `variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\nmin_bet = 10\nstarting_stacks = ${stacks}\nactions = ${actions}\nfinishing_stacks = ${finish}\n`;
/** The big blind folds with checking free (PokerKit cash-game mode), then p3 wins p1's call. */
const FREE_FOLD = nt(
  '[1000, 1000, 1000]',
  "['d dh p1 7c2d', 'd dh p2 AsAd', 'd dh p3 KsKd', 'p3 cc', 'p1 cc', 'p2 f', 'd db 2c7d9h', 'p1 cc', 'p3 cbr 20', 'p1 f']",
  '[990, 990, 1020]',
);

describe('db8 poker phh', () => {
  it('replays a folder of corpus hands and .phhs tables: all match, exit 0', async () => {
    const fixed = `variant = 'FT'\nsmall_bet = 2\nbig_bet = 4\n`;
    const dir = folder('ok', [...MATCHING, NO_FINISH], {
      'mine/free-fold.phh': FREE_FOLD,
      'mine/two.phhs': `[1]\n${FREE_FOLD}\n[2]\n${fixed}`,
      'notes.txt': 'not a hand history',
    });
    const r = await spawnDb8(['poker', 'phh', dir], root);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      "5/7 hands match their finishing stacks (6 files; 1 replayed with no finishing_stacks to compare; 1 skipped (not no-limit hold'em, or infinite stacks))\n",
    );
    const json = await spawnDb8(['poker', 'phh', dir, '--json'], root);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      files: 6,
      hands: 7,
      matched: 5,
      unchecked: 1,
      skipped: 1,
    });
  });

  it('names each hand that ends elsewhere or does not replay, and exits 3', async () => {
    const wrong = FREE_FOLD.replace('[990, 990, 1020]', '[1000, 980, 1020]');
    const illegal = FREE_FOLD.replace("'p3 cc', 'p1 cc'", "'p1 cc', 'p3 cc'");
    const dir = folder('bad', [...MATCHING, HALVES], { 'wrong.phh': wrong, 'illegal.phh': illegal });
    const r = await spawnDb8(['poker', 'phh', dir], root);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('db8: 2 hand(s) end with other stacks than their file, 1 did not replay\n');
    expect(r.stdout.split('\n')).toEqual([
      "illegal.phh: illegal: action 3 'p1 cc': NOT_YOUR_TURN: p3 is to act, not p1",
      `${HALVES}: ends with [10113, 9775, 10000, 10000, 10112, 10000], the file says [10112.5, 9775, 10000, 10000, 10112.5, 10000]`,
      'wrong.phh: ends with [990, 990, 1020], the file says [1000, 980, 1020]',
      '3/6 hands match their finishing stacks (6 files; 1 did not replay)',
      '',
    ]);
  });

  it('exit codes: 4 for a missing folder, 2 for nothing to check or a file that is not PHH, 1 for usage', async () => {
    const missing = await spawnDb8(['poker', 'phh', join(root, 'nope')], root);
    expect(missing.status).toBe(4);
    expect(missing.stderr).toMatch(/^db8: cannot read .*nope: ENOENT\n$/);
    const empty = await spawnDb8(['poker', 'phh', folder('empty', [])], root);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/^db8: no no-limit hold'em hands found in /);
    const broken = await spawnDb8(
      ['poker', 'phh', folder('broken', MATCHING, { 'x.phh': 'a = [1, 2' })],
      root,
    );
    expect(broken.status).toBe(2);
    expect(broken.stdout).toMatch(/^x\.phh: unreadable: .*\n3\/3 hands match/);
    const usage = await spawnDb8(['poker', 'phh'], root);
    expect(usage.status).toBe(1);
    const help = await spawnDb8(['poker', '--help'], root);
    expect(help.stdout).toMatch(/phh \[options\] <dir>/);
  });
});
