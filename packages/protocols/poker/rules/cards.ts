// Cards as two-character strings ('As', 'Td', '2c'); '??' is a card whose face is unknown (PHH).
// The evaluator works on integers: rank * 4 + suit, rank 0..12 = 2..A, suit 0..3 = c d h s.

export const RANKS = '23456789TJQKA';
export const SUITS = 'cdhs';
export const UNKNOWN_CARD = '??';

const INDEX: Record<string, number> = Object.create(null);
const NAMES: string[] = [];
for (let r = 0; r < 13; r++) {
  for (let s = 0; s < 4; s++) {
    const name = RANKS[r]! + SUITS[s]!;
    INDEX[name] = r * 4 + s;
    NAMES[r * 4 + s] = name;
  }
}

/** The 52 cards in a fixed order (2c 2d 2h 2s 3c … As): the input to a seeded shuffle. */
export function fullDeck(): string[] {
  return NAMES.slice();
}

export function isCard(value: unknown): value is string {
  return typeof value === 'string' && INDEX[value] !== undefined;
}

/** Card string to its integer code, or -1 for anything that is not a known card (including '??'). */
export function cardCode(card: string): number {
  return INDEX[card] ?? -1;
}

export function cardName(code: number): string {
  const name = NAMES[code];
  if (name === undefined) throw new RangeError(`not a card code: ${code}`);
  return name;
}

/**
 * Split PHH-style card runs ('AcKd', 'Jc3d5c', '????') into cards. Case of the rank is folded
 * (PHH writes 'T'; some sources write 't'). Returns null when the text is not a whole number of cards.
 */
export function parseCards(text: string): string[] | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0) return null;
  const out: string[] = [];
  for (let i = 0; i < clean.length; i += 2) {
    const card = clean[i]!.toUpperCase() + clean[i + 1]!.toLowerCase();
    if (card === UNKNOWN_CARD || INDEX[card] !== undefined) out.push(card);
    else return null;
  }
  return out;
}
