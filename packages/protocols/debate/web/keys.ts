// The debate module's query keys, in one place (reads through @db8/web/kit's TanStack Query).

export const debateKeys = {
  ratings: (scripted: boolean) => ['debate', 'ratings', { scripted }] as const,
  /** One identity's rating history; `asOf` (the tables' computed_at) when read for the leaderboard. */
  rating: (identity: string, scripted: boolean, asOf?: string) =>
    ['debate', 'rating', identity, { scripted, asOf: asOf ?? null }] as const,
  names: (ids: string) => ['debate', 'names', ids] as const,
  /** The leaderboard's head only (limit 1): read for its list of unrated debates and why. */
  unrated: () => ['debate', 'ratings', 'unrated'] as const,
};
