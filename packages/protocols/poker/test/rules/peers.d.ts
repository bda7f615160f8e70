// Ambient types for the untyped peer libraries used only by tests and bench/poker.bench.ts.
declare module 'pokersolver' {
  interface SolvedHand {
    name: string;
    descr: string;
    rank: number;
  }
  const pokersolver: {
    Hand: { solve(cards: string[]): SolvedHand; winners(hands: SolvedHand[]): SolvedHand[] };
  };
  export default pokersolver;
}

declare module 'phe' {
  const phe: {
    cardCodes(cards: string[]): number[];
    evaluateCardCodes(codes: number[]): number;
    rankCodes: Record<string, number>;
  };
  export default phe;
}

declare module 'phe/lib/evaluator7.js' {
  const evaluate7cards: (
    a: number,
    b: number,
    c: number,
    d: number,
    e: number,
    f: number,
    g: number,
  ) => number;
  export default evaluate7cards;
}
