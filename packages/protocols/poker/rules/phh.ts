// PHH (Poker Hand History, the format of the uoftcprg/phh-dataset) import, replay and export for
// no-limit Texas hold'em ('NT'). Amounts with decimals (HandHQ writes dollars) become integers by one
// power of ten per hand; that power is also the split unit, because our oracle (PokerKit) splits pots in
// whole units of the file's currency.
import { parseCards } from './cards.ts';
import { applyAction, finish, setup } from './engine.ts';
import type { PokerAction, PokerConfigInput, PokerState } from './state.ts';
import { parseToml, type TomlTable, type TomlValue } from './toml.ts';

export type PhhHand = {
  variant: string;
  antes: number[];
  blindsOrStraddles: number[];
  minBet: number;
  startingStacks: number[];
  actions: string[];
  finishingStacks: number[] | null;
  players: string[] | null;
  /** Every other field as parsed (ante_trimming_status, seats, hand, event, …). */
  extra: Record<string, TomlValue>;
};

export class PhhError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhhError';
  }
}

const KNOWN = new Set([
  'variant',
  'antes',
  'blinds_or_straddles',
  'min_bet',
  'starting_stacks',
  'actions',
  'finishing_stacks',
  'players',
]);

function numbers(t: TomlTable, key: string, required = true): number[] | null {
  const v = t[key];
  if (v === undefined && !required) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number'))
    throw new PhhError(`${key} must be numbers`);
  return v as number[];
}

/** One hand from its parsed TOML table (a `.phh` file's top level, or one `[n]` table of a `.phhs`). */
export function phhHandOf(t: TomlTable): PhhHand {
  const variant = t.variant;
  if (typeof variant !== 'string') throw new PhhError('variant is missing');
  const minBet = t.min_bet;
  if (typeof minBet !== 'number') throw new PhhError('min_bet must be a number');
  const actions = t.actions;
  if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string'))
    throw new PhhError('actions must be strings');
  const players = t.players;
  const extra: Record<string, TomlValue> = {};
  for (const [k, v] of Object.entries(t)) if (!KNOWN.has(k) && !isTable(v)) extra[k] = v;
  return {
    variant,
    antes: numbers(t, 'antes')!,
    blindsOrStraddles: numbers(t, 'blinds_or_straddles')!,
    minBet,
    startingStacks: numbers(t, 'starting_stacks')!,
    actions: actions as string[],
    finishingStacks: numbers(t, 'finishing_stacks', false),
    players: Array.isArray(players) ? players.map(String) : null,
    extra,
  };
}

function isTable(v: unknown): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One hand from a `.phh` file. */
export function parsePhh(text: string): PhhHand {
  return phhHandOf(parseToml(text));
}

/** Every hand of a `.phhs` file (tables [1], [2], …), in file order. */
export function parsePhhs(text: string): PhhHand[] {
  const root = parseToml(text);
  return Object.values(root)
    .filter(isTable)
    .map((t) => phhHandOf(t));
}

function decimals(x: number): number {
  const s = String(x);
  if (/e/i.test(s)) throw new PhhError(`amount ${s} is not a plain decimal`);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** The power of ten that makes every amount in the hand (not the finishing stacks) a whole number. */
export function phhScale(hand: PhhHand): number {
  const amounts = [...hand.antes, ...hand.blindsOrStraddles, hand.minBet, ...hand.startingStacks];
  for (const a of hand.actions) {
    const m = /^p\d+\s+cbr\s+(\S+)/.exec(a.trim());
    if (m) amounts.push(Number(m[1]));
  }
  let d = 0;
  for (const x of amounts) {
    if (!Number.isFinite(x)) throw new PhhError(`amount ${x} is not finite`);
    d = Math.max(d, decimals(x));
  }
  return 10 ** d;
}

export function toUnits(x: number, scale: number): number {
  const v = Math.round(x * scale);
  if (Math.abs(v - x * scale) > 1e-6) throw new PhhError(`${x} is not a multiple of 1/${scale}`);
  return v;
}

/** The engine config for a hand (antes are dead money whatever ante_trimming_status says; docs/poker.md). */
export function phhConfig(hand: PhhHand, scale = phhScale(hand)): PokerConfigInput {
  if (hand.variant !== 'NT') throw new PhhError(`variant ${hand.variant} is not no-limit Texas hold'em (NT)`);
  const u = (x: number) => toUnits(x, scale);
  return {
    startingStacks: hand.startingStacks.map(u),
    antes: hand.antes.map(u),
    blindsOrStraddles: hand.blindsOrStraddles.map(u),
    minBet: u(hand.minBet),
    splitUnit: scale,
  };
}

/** One PHH action line as an engine action; null for a blank line or pure commentary. */
export function phhAction(line: string, scale: number): PokerAction | null {
  const text = line
    .replace(/\s#.*$/, '')
    .replace(/^#.*$/, '')
    .trim();
  if (text === '') return null;
  const parts = text.split(/\s+/);
  const bad = (): never => {
    throw new PhhError(`cannot read action '${line}'`);
  };
  const seatOf = (p: string | undefined) => {
    const m = /^p(\d+)$/.exec(p ?? '');
    return m ? Number(m[1]) - 1 : bad();
  };
  const cardsOf = (p: string | undefined) => parseCards(p ?? '') ?? bad();
  if (parts[0] === 'd') {
    if (parts[1] === 'dh' && parts.length === 4)
      return { type: 'dealHole', seat: seatOf(parts[2]), cards: cardsOf(parts[3]) };
    if (parts[1] === 'db' && parts.length === 3) return { type: 'dealBoard', cards: cardsOf(parts[2]) };
    return bad();
  }
  const seat = seatOf(parts[0]);
  switch (parts[1]) {
    case 'f':
      return { type: 'fold', seat };
    case 'cc':
      return { type: 'checkOrCall', seat };
    case 'cbr':
      return parts.length === 3
        ? { type: 'completeBetOrRaiseTo', seat, amount: toUnits(Number(parts[2]), scale) }
        : bad();
    case 'sm':
      return parts.length === 2
        ? { type: 'showOrMuck', seat, muck: true }
        : { type: 'showOrMuck', seat, cards: cardsOf(parts[2]) };
    default:
      return bad();
  }
}

export type PhhReplay = {
  state: PokerState;
  scale: number;
  /** Actions applied (blank lines skipped). */
  applied: number;
  /** True when the file stopped before the hand was over and the engine finished it. */
  finished: boolean;
};

/**
 * Replays a hand through the engine: every action must be legal, including who acts. A file that stops
 * early is finished with no more cards dealt. Throws PokerRuleError or PhhError naming the action.
 */
export function replayPhh(hand: PhhHand): PhhReplay {
  const scale = phhScale(hand);
  let state = setup(phhConfig(hand, scale));
  let applied = 0;
  hand.actions.forEach((line, index) => {
    const action = phhAction(line, scale);
    if (!action) return;
    try {
      state = applyAction(state, action);
    } catch (e) {
      (e as Error).message = `action ${index} '${line}': ${(e as Error).message}`;
      throw e;
    }
    applied++;
  });
  const finished = state.phase !== 'complete';
  if (finished) state = finish(state);
  return { state, scale, applied, finished };
}

function formatAmount(units: number, scale: number): string {
  if (scale === 1) return String(units);
  const digits = Math.round(Math.log10(scale));
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const whole = Math.floor(abs / scale);
  const frac = String(abs - whole * scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return sign + String(whole) + (frac ? `.${frac}` : '');
}

const quote = (s: string) => `'${s.replace(/'/g, '')}'`;

/**
 * A hand as PHH text: the table, every action in the log, and the finishing stacks once complete.
 * `scale` turns engine chips back into the file's units (as chosen on import); `players` names seats.
 */
export function toPhh(state: PokerState, opts: { scale?: number; players?: readonly string[] } = {}): string {
  const scale = opts.scale ?? 1;
  const amounts = (xs: readonly number[]) => `[${xs.map((x) => formatAmount(x, scale)).join(', ')}]`;
  const c = state.config;
  const actions = state.log.map((line) => {
    const m = /^(p\d+ cbr )(\d+)$/.exec(line);
    return m ? m[1]! + formatAmount(Number(m[2]), scale) : line;
  });
  const lines = [
    `variant = 'NT'`,
    'ante_trimming_status = false',
    `antes = ${amounts(c.antes)}`,
    `blinds_or_straddles = ${amounts(c.blindsOrStraddles)}`,
    `min_bet = ${formatAmount(c.minBet, scale)}`,
    `starting_stacks = ${amounts(c.startingStacks)}`,
    `actions = [${actions.map(quote).join(', ')}]`,
  ];
  if (opts.players) lines.push(`players = [${opts.players.map(quote).join(', ')}]`);
  if (state.phase === 'complete') lines.push(`finishing_stacks = ${amounts(state.stacks)}`);
  return `${lines.join('\n')}\n`;
}
