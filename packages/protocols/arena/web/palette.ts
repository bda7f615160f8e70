/** Entrant colours, distinguishable in light and dark schemes and by most colour-blind readers (Okabe–Ito). */
export const PALETTE = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#8c6d31',
  '#6b5bd6',
];

export const colorOf = (i: number) => PALETTE[i % PALETTE.length]!;
