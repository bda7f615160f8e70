// Provably fair dealing: the deck for hand h is the room seed's `poker/deck/h` stream shuffling the
// 52 cards; before the hand the table publishes sha256(canonical JSON {deck, salt}), and at hand end it
// reveals deck and salt so anyone can check both the commitment and (once the room seed is revealed)
// that the deck is the seeded shuffle.
import { createRng, hashCanonical, toHex } from '@db8/core';
import { fullDeck, isCard } from './cards.ts';

export type DealtDeck = { deck: string[]; salt: string; commitment: string };

export function deckForHand(roomSeed: string | Uint8Array, hand: number): string[] {
  return createRng(roomSeed, `poker/deck/${hand}`).shuffle(fullDeck());
}

/** A per-hand salt from its own stream, so the commitment hides the deck even from someone who can
 * enumerate shuffles. */
export function saltForHand(roomSeed: string | Uint8Array, hand: number): string {
  return toHex(createRng(roomSeed, `poker/salt/${hand}`).bytes(16));
}

export function deckCommitment(deck: readonly string[], salt: string): string {
  return hashCanonical({ deck, salt });
}

export function dealDeck(roomSeed: string | Uint8Array, hand: number): DealtDeck {
  const deck = deckForHand(roomSeed, hand);
  const salt = saltForHand(roomSeed, hand);
  return { deck, salt, commitment: deckCommitment(deck, salt) };
}

/** True when `deck` is 52 distinct cards and hashes with `salt` to `commitment`. */
export function verifyDeckCommitment(commitment: string, deck: readonly string[], salt: string): boolean {
  if (deck.length !== 52 || !deck.every(isCard) || new Set(deck).size !== 52) return false;
  return deckCommitment(deck, salt) === commitment;
}
