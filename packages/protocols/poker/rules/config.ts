// setup() validates its config by hand: the same rules as PokerConfigSchema (a property test keeps the
// two in agreement), at a fraction of the cost, because a table starts a new hand every few dozen
// microseconds. Parse untrusted JSON with the zod schema at the wire; this is the engine's own guard.
import { cardCode } from './cards.ts';
import { err, type PokerConfig, type PokerError } from './state.ts';

const isChips = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

function chipsArray(v: unknown, name: string, min: number): PokerError | undefined {
  if (!Array.isArray(v)) return err('INVALID_CONFIG', `${name}: expected an array`);
  for (let i = 0; i < v.length; i++)
    if (!isChips(v[i]) || v[i] < min)
      return err('INVALID_CONFIG', `${name}.${i}: expected an integer ≥ ${min}`);
  return undefined;
}

export function checkConfig(input: unknown): PokerConfig | PokerError {
  if (typeof input !== 'object' || input === null) return err('INVALID_CONFIG', 'expected an object');
  const c = input as Record<string, unknown>;
  const stacks = c.startingStacks;
  const bad =
    chipsArray(stacks, 'startingStacks', 1) ??
    chipsArray(c.antes, 'antes', 0) ??
    chipsArray(c.blindsOrStraddles, 'blindsOrStraddles', Number.MIN_SAFE_INTEGER);
  if (bad) return bad;
  const n = (stacks as number[]).length;
  if (n < 2 || n > 10) return err('INVALID_CONFIG', 'startingStacks: 2 to 10 seats');
  if ((c.antes as number[]).length !== n) return err('INVALID_CONFIG', 'antes must have one entry per seat');
  if ((c.blindsOrStraddles as number[]).length !== n)
    return err('INVALID_CONFIG', 'blindsOrStraddles must have one entry per seat');
  if (!isChips(c.minBet) || c.minBet < 1) return err('INVALID_CONFIG', 'minBet: expected an integer ≥ 1');
  const splitUnit = c.splitUnit ?? 1;
  if (!isChips(splitUnit) || splitUnit < 1)
    return err('INVALID_CONFIG', 'splitUnit: expected an integer ≥ 1');
  const deck = c.deck ?? null;
  if (deck !== null) {
    if (!Array.isArray(deck) || deck.length !== 52) return err('INVALID_CONFIG', 'deck: expected 52 cards');
    let lo = 0; // seen-card bits, cards 0..25 and 26..51
    let hi = 0;
    for (const card of deck) {
      const code = typeof card === 'string' ? cardCode(card) : -1;
      if (code < 0) return err('INVALID_CONFIG', 'deck: expected 52 cards');
      const bit = 1 << (code % 26);
      if ((code < 26 ? lo : hi) & bit) return err('INVALID_CONFIG', 'deck repeats a card');
      if (code < 26) lo |= bit;
      else hi |= bit;
    }
  }
  const autoShowdown = c.autoShowdown ?? false;
  if (typeof autoShowdown !== 'boolean') return err('INVALID_CONFIG', 'autoShowdown: expected a boolean');
  return {
    startingStacks: stacks as number[],
    antes: c.antes as number[],
    blindsOrStraddles: c.blindsOrStraddles as number[],
    minBet: c.minBet,
    splitUnit,
    deck: deck as string[] | null,
    autoShowdown,
  };
}
