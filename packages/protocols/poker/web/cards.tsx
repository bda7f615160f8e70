// Cards as text glyphs: 'As' → A♠, hearts and diamonds in red; '??' (or nothing) is a face-down card.

const SUITS: Record<string, { glyph: string; name: string; red: boolean }> = {
  s: { glyph: '♠', name: 'spades', red: false },
  h: { glyph: '♥', name: 'hearts', red: true },
  d: { glyph: '♦', name: 'diamonds', red: true },
  c: { glyph: '♣', name: 'clubs', red: false },
};
const RANKS: Record<string, string> = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };
const RANK_NAMES: Record<string, string> = { T: 'ten', J: 'jack', Q: 'queen', K: 'king', A: 'ace' };

/** 'Th' → '10♥'; unknown or malformed cards → null. */
export function cardGlyph(card: string): string | null {
  const rank = card[0];
  const suit = SUITS[card[1] ?? ''];
  if (!rank || !suit || card.length !== 2 || !/[2-9TJQKA]/.test(rank)) return null;
  return `${RANKS[rank] ?? rank}${suit.glyph}`;
}

export function Card(props: { card: string | null; small?: boolean }) {
  const { card, small } = props;
  const glyph = card ? cardGlyph(card) : null;
  const cls = small ? ' small-card' : '';
  if (!card || !glyph) {
    return <span className={`pcard back${cls}`} role="img" aria-label="face-down card" />;
  }
  const suit = SUITS[card[1]!]!;
  const rank = card[0]!;
  return (
    <span
      className={`pcard${suit.red ? ' red' : ''}${cls}`}
      role="img"
      aria-label={`${RANK_NAMES[rank] ?? rank} of ${suit.name}`}
      data-card={card}
    >
      {glyph}
    </span>
  );
}

const cardSlot = (i: number) => `slot${i}`;

export function Cards(props: { cards: readonly (string | null)[]; small?: boolean }) {
  return (
    <span className="pcards">
      {/* A hand's cards never repeat except face down, so position is the identity here. */}
      {props.cards.map((c, i) => (
        <Card key={`${c ?? 'down'}-${cardSlot(i)}`} card={c} small={props.small ?? false} />
      ))}
    </span>
  );
}
