/** One row of `npm run bench`: our figure, and where there is one, a peer's measured in the same run. */
export type BenchRow = {
  area: string;
  name: string;
  value: number;
  unit: string;
  peer?: string;
  peerValue?: number;
  goal?: string;
};
