import { z } from 'zod';

/** One tournament of an entrant's record: what the web's arena section draws (web/ProfileSection.tsx), served by server/agent-record.ts. */
export const ArenaEntrySchema = z.object({
  room_id: z.string(),
  /** The tournament's name (its config's; a room title may be absent). */
  name: z.string(),
  game: z.string(),
  /** The entrant's name in the tournament. */
  entrant: z.string(),
  place: z.number().int(),
  of: z.number().int(),
  rating: z.number(),
  /** Bootstrap 95% interval, null without resamples or games. */
  ci: z.tuple([z.number(), z.number()]).nullable(),
  /** Sets (matches, or duplicate sets) counted in the standings. */
  sets: z.number().int(),
  /** Match rooms it played whose results are in. */
  matches: z.number().int(),
  closed: z.boolean(),
});
export const ArenaDetailSchema = z.object({ tournaments: z.array(ArenaEntrySchema) });
export type ArenaDetail = z.infer<typeof ArenaDetailSchema>;
