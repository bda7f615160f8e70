// Conformance: replay every hand of the external PHH corpus (test/conformance/phh, README there)
// and match the recorded final stacks, checking at each step that the acting seat is the one the engine
// expects. Judgement calls are the README's and are listed in docs/poker.md.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conformancePath } from '../../../../../test/conformance.ts';
import {
  applyAction,
  finish,
  legalActions,
  type PhhHand,
  type PokerState,
  parsePhh,
  parsePhhs,
  parseToml,
  phhAction,
  phhConfig,
  phhScale,
  setup,
  TomlError,
  toPhh,
} from '../../rules/index.ts';

const ROOT = `${conformancePath('phh')}/`;

type ManifestEntry = { file: string; tags: string[]; pokerkit_final_stacks: string[] };

function loadManifest(): ManifestEntry[] {
  if (!existsSync(`${ROOT}MANIFEST.jsonl`))
    throw new Error(`PHH conformance corpus missing at ${ROOT} (test/conformance/phh in the repository)`);
  return readFileSync(`${ROOT}MANIFEST.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ManifestEntry);
}

/** The 8 Pluribus split pots whose files record x.5 halves (README): judged by our odd-chip rule. */
const ODD_CHIP = new Set([
  'pluribus/41b/204.phh',
  'pluribus/102/0.phh',
  'pluribus/60/88.phh',
  'pluribus/91/53.phh',
  'pluribus/91/43.phh',
  'pluribus/32/23.phh',
  'pluribus/88/128.phh',
  'pluribus/75b/76.phh',
]);
/** ante_trimming_status = true with a big-blind ante; the file's stacks use dead-money antes (README). */
const ANTE_TRIM = 'wsop/2019/42/3/00-01-07.phh';

/** Known record defects, patched here rather than loosening the engine. */
function patched(file: string, hand: PhhHand): PhhHand {
  if (file === ANTE_TRIM) {
    // The hand-copied record skips the button: after 'p7 cbr 1150000' p8 (stack unchanged at the end,
    // never acts again) must fold before p1 calls.
    const i = hand.actions.indexOf('p7 cbr 1150000');
    expect(hand.actions[i + 1]).toBe('p1 cc');
    return { ...hand, actions: [...hand.actions.slice(0, i + 1), 'p8 f', ...hand.actions.slice(i + 1)] };
  }
  return hand;
}

/** Replays with the actor checked before every step; returns the final state. */
function replayChecked(hand: PhhHand, scale: number): PokerState {
  let s = setup(phhConfig(hand, scale));
  hand.actions.forEach((line, index) => {
    const a = phhAction(line, scale);
    if (!a) return;
    const legal = legalActions(s);
    const expected =
      a.type === 'dealHole'
        ? legal.deal?.kind === 'hole' && legal.deal.seat === a.seat
        : a.type === 'dealBoard'
          ? legal.deal?.kind === 'board'
          : a.type === 'showOrMuck'
            ? legal.show.includes(a.seat)
            : a.type === 'finish' || legal.actor === a.seat;
    if (!expected)
      throw new Error(`action ${index} '${line}': not the expected actor (${JSON.stringify(legal)})`);
    s = applyAction(s, a);
  });
  return s.phase === 'complete' ? s : finish(s);
}

describe('PHH conformance corpus', () => {
  const manifest = loadManifest();
  const replayed = new Map<string, { hand: PhhHand; scale: number; state: PokerState }>();

  it('replays every hand with the expected actor at every step and matches the final stacks', () => {
    let passed = 0;
    let oddChip = 0;
    const failures: string[] = [];
    for (const m of manifest) {
      const hand = patched(m.file, parsePhh(readFileSync(ROOT + m.file, 'utf8')));
      const scale = phhScale(hand);
      let state: PokerState;
      try {
        state = replayChecked(hand, scale);
        replayed.set(m.file, { hand, scale, state });
      } catch (e) {
        failures.push(`${m.file}: ${(e as Error).message}`);
        continue;
      }
      const total = hand.startingStacks.reduce((a, b) => a + Math.round(b * scale), 0);
      const got = state.stacks;
      const pokerkit = m.pokerkit_final_stacks.map((x) => Math.round(Number(x) * scale));
      const recorded = hand.finishingStacks?.map((x) => x * scale) ?? pokerkit; // x.5 stays fractional
      const sum = got.reduce((a, b) => a + b, 0);
      let ok: boolean;
      if (ODD_CHIP.has(m.file)) {
        // x.5 in the file: within half a chip of it, and exactly PokerKit's (odd chip to p1's side)
        ok = got.every((g, i) => Math.abs(g - recorded[i]!) <= 0.5) && got.every((g, i) => g === pokerkit[i]);
        if (ok) oddChip++;
      } else ok = got.every((g, i) => g === recorded[i]);
      if (ok && sum === total) passed++;
      else failures.push(`${m.file}: got [${got.join(', ')}], want [${recorded.join(', ')}]`);
    }
    console.log(
      `PHH corpus: ${passed}/${manifest.length} hands match (${oddChip} odd-chip splits judged by our rule)`,
    );
    expect(failures).toEqual([]);
    expect(oddChip).toBe(ODD_CHIP.size);
    expect(passed).toBe(manifest.length);
    expect(manifest.length).toBe(1957);
  });

  it('the 2019 WSOP hand: the big-blind ante is dead money (the file), not returned (PokerKit)', () => {
    const m = manifest.find((e) => e.file === ANTE_TRIM)!;
    const hand = patched(ANTE_TRIM, parsePhh(readFileSync(ROOT + ANTE_TRIM, 'utf8')));
    expect(hand.extra.ante_trimming_status).toBe(true);
    const s = replayChecked(hand, 1);
    expect(s.stacks.slice(0, 2)).toEqual([18_100_000, 5_625_000]);
    expect(m.pokerkit_final_stacks.slice(0, 2)).toEqual(['17600000', '6125000']);
  });

  it('exports each replayed hand to PHH that replays to the same log and stacks', () => {
    let roundTrips = 0;
    for (const m of manifest) {
      const { hand, scale, state: s } = replayed.get(m.file)!;
      const text = toPhh(s, { scale, players: hand.players ?? undefined });
      const again = parsePhh(text);
      expect(phhScale(again) <= scale).toBe(true);
      const t = replayChecked(again, scale);
      expect(t.log).toEqual(s.log);
      expect(t.stacks).toEqual(s.stacks);
      expect(again.finishingStacks?.map((x) => Math.round(x * scale))).toEqual(s.stacks);
      roundTrips++;
    }
    expect(roundTrips).toBe(manifest.length);
  });
});

describe('PHH text', () => {
  it('parses the TOML subset PHH uses', () => {
    const t = parseToml(
      [
        '# comment',
        "variant = 'NT'",
        'flag = true',
        'time = 12:38:18',
        'amounts = [1, 2.5, -3, inf]',
        'actions = [',
        '  "d dh p1 AsKd",  # trailing comment',
        '',
        '  "p1 cbr 500 # inline commentary",',
        ']',
        'name = "a \\"quoted\\" \\u00e9"',
      ].join('\n'),
    );
    expect(t).toEqual({
      variant: 'NT',
      flag: true,
      time: '12:38:18',
      amounts: [1, 2.5, -3, Number.POSITIVE_INFINITY],
      actions: ['d dh p1 AsKd', 'p1 cbr 500 # inline commentary'],
      name: 'a "quoted" é',
    });
    expect(() => parseToml('a = 1\na = 2')).toThrow(TomlError);
    expect(() => parseToml('a = [1, 2')).toThrow(TomlError);
    expect(() => parseToml("a = 'open")).toThrow(TomlError);
  });

  it('reads .phhs files with many hands, strips commentary, and scales decimal amounts', () => {
    const one = (stacks: string) =>
      `variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.5, 1]\nmin_bet = 1\nstarting_stacks = ${stacks}\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 2.25 # open', 'p1 f']\n`;
    const hands = parsePhhs(`[1]\n${one('[100, 100]')}\n[2]\n${one('[50.25, 80]')}`);
    expect(hands).toHaveLength(2);
    expect(phhScale(hands[0]!)).toBe(100);
    const cfg = phhConfig(hands[1]!);
    expect(cfg).toMatchObject({ startingStacks: [5025, 8000], blindsOrStraddles: [50, 100], splitUnit: 100 });
    expect(phhAction('p2 cbr 2.25 # open', 100)).toEqual({
      type: 'completeBetOrRaiseTo',
      seat: 1,
      amount: 225,
    });
    expect(phhAction('   ', 100)).toBeNull();
    expect(() => phhAction('p1 zz', 1)).toThrow(/cannot read/);
    expect(() => phhConfig({ ...hands[0]!, variant: 'FT' })).toThrow(/not no-limit/);
  });
});
