import { z } from 'zod';
import { POKER_DEFAULT_BIG_BLIND } from './poker-stats.ts';

/**
 * A tournament's configuration: which game its matches play, how they are drawn (the format), who
 * plays, how many seats a match has, and the base seed every match seed and every bootstrap draw is
 * derived from (so the whole tournament — schedule, deals, confidence intervals — replays from it).
 */

const name = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[^\s].*[^\s]$|^[^\s]$/, 'no leading or trailing spaces');

/** Who an entrant is: a model driver, a scripted strategy, a person, or an outside agent. */
export const EntrantSchema = z.discriminatedUnion('kind', [
  z
    .object({
      name,
      kind: z.literal('model'),
      provider: z.string().min(1).max(60),
      model: z.string().min(1).max(120),
    })
    .strict(),
  z.object({ name, kind: z.literal('scripted'), strategy: z.string().min(1).max(60) }).strict(),
  z.object({ name, kind: z.literal('person') }).strict(),
  z.object({ name, kind: z.literal('outside') }).strict(),
]);
export type Entrant = z.infer<typeof EntrantSchema>;

/** Kinds that play their own seat through the room's API (an outside agent, a signed-in person). */
export const isOutsideKind = (kind: string | undefined): boolean => kind === 'outside' || kind === 'person';

export const FormatSchema = z.discriminatedUnion('kind', [
  /** Every group of `seatsPerMatch` entrants meets `games` times, the seat order rotating each time. */
  z.object({ kind: z.literal('round-robin'), games: z.number().int().min(1).max(100).default(1) }).strict(),
  /** `rounds` rounds, each paired from the standings so far; no pair meets twice when avoidable. */
  z.object({ kind: z.literal('swiss'), rounds: z.number().int().min(1).max(50) }).strict(),
  /**
   * Every group plays `deals` duplicate sets: one deal seed, played once per seat rotation, so each
   * entrant holds every seat's cards once and card luck cancels in the set's summed chips.
   */
  z.object({ kind: z.literal('duplicate-poker'), deals: z.number().int().min(1).max(1000) }).strict(),
]);
export type Format = z.infer<typeof FormatSchema>;

export const GAMES = ['debate', 'poker', 'sealed-bid', 'deliberation'] as const;

/** Poker's blinds when `gameConfig` names none (app/src/arena-games.ts plays with these). */
export const POKER_DEFAULT_BLINDS = { smallBlind: 5, bigBlind: POKER_DEFAULT_BIG_BLIND } as const;

/**
 * How long an outside or person seat at a poker match has for each decision (`gameConfig.actionWindowMs`)
 * before the table times it out (check if free, else fold). The server's own seats act at once.
 */
export const POKER_DEFAULT_ACTION_WINDOW_MS = 30_000;

/**
 * How long each debate phase that waits on the debaters (submissions, fact-checking, the votes)
 * lasts in an arena match when `gameConfig.windowMs` names none. The server's own seats never wait
 * it out; it is how long an outside debater who does not act holds its match up, per phase.
 */
export const DEBATE_DEFAULT_WINDOW_MS = 60_000;

/**
 * How long each step of a deliberation match (plan, proposal, convergence) waits for its seats when
 * `gameConfig.windowMs` names none: the room's `phaseTimeoutMs`. The server's own seats never wait
 * it out; it is how long an outside proposer who does not act holds its match up, per step.
 */
export const DELIBERATION_DEFAULT_WINDOW_MS = 60_000;

/** A window an outside seat is given: a second at least (an agent polling REST), a day at most. */
const windowMs = () =>
  z
    .number({ error: 'a whole number of milliseconds' })
    .int('a whole number of milliseconds')
    .min(1000, 'at least 1000 ms')
    .max(86_400_000, 'at most a day')
    .optional();

const count = (max: number) =>
  z
    .number({ error: 'a whole number' })
    .int('a whole number')
    .min(1, 'at least 1')
    .max(max, `at most ${max.toLocaleString('en')}`)
    .optional();

/**
 * The `gameConfig` settings each game reads (app/src/arena-games.ts, arena-debate.ts), with the
 * bounds its own protocol puts on them: checked when the tournament is made, so a typo or a big
 * blind below the small one is refused at once rather than found when no match room will open.
 * Keys a game does not read pass through unread.
 */
export const GAME_SETTINGS = {
  poker: z
    .object({
      hands: count(100_000),
      smallBlind: count(1e12),
      bigBlind: count(1e12),
      startingStack: count(1e12),
      actionWindowMs: windowMs(),
    })
    .refine(
      (g) =>
        (g.bigBlind ?? POKER_DEFAULT_BLINDS.bigBlind) >= (g.smallBlind ?? POKER_DEFAULT_BLINDS.smallBlind),
      { path: ['bigBlind'], message: 'the big blind must be at least the small blind' },
    ),
  'sealed-bid': z.object({
    item: z.string().min(1).max(200).optional(),
    biddingWindowMs: windowMs(),
  }),
  debate: z.object({
    topic: z.string().min(1).max(500).optional(),
    rounds: count(20),
    windowMs: windowMs(),
  }),
  // A deliberation match's task and the checklist its house judge scores proposals by
  // (app/src/arena-deliberation.ts): each point one line of words.
  deliberation: z.object({
    topic: z.string().min(1).max(2000).optional(),
    points: z
      .array(
        z
          .string()
          .max(200)
          .regex(/^[^\n]*[\p{L}\p{N}][^\n]*$/u, 'one line with at least one word'),
      )
      .min(1)
      .max(16)
      .optional(),
    windowMs: windowMs(),
  }),
} as const;

export const ArenaConfigSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** The protocol every match room plays. */
    game: z.enum(GAMES),
    /** Game-specific settings the runner passes to each match (hands per table, blinds, topic…). */
    gameConfig: z.record(z.string(), z.unknown()).default({}),
    format: FormatSchema,
    entrants: z.array(EntrantSchema).min(2).max(64),
    seatsPerMatch: z.number().int().min(2).max(10).default(2),
    /** The base seed: match seeds and bootstrap resamples are derived from it. */
    seed: z.string().min(1).max(200),
    /** How many matches the runner plays at once. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Bootstrap resamples for the rating intervals (0: no intervals). */
    bootstrap: z.number().int().min(0).max(2000).default(200),
    /**
     * Who plays a tournament made on a server: `server` — the server plays every match itself (when
     * it can play the game and every entrant); `organizer` — whoever holds the organizer seat writes
     * the schedule and results (a script, a hand-run test). `db8 arena run` plays its own either way.
     */
    runBy: z.enum(['server', 'organizer']).default('server'),
  })
  .strict()
  .superRefine((c, ctx) => {
    const names = c.entrants.map((e) => e.name);
    if (new Set(names).size !== names.length)
      ctx.addIssue({ code: 'custom', path: ['entrants'], message: 'entrant names must be unique' });
    if (c.seatsPerMatch > c.entrants.length)
      ctx.addIssue({
        code: 'custom',
        path: ['seatsPerMatch'],
        message: 'more seats per match than entrants',
      });
    const settings = GAME_SETTINGS[c.game].safeParse(c.gameConfig);
    if (!settings.success)
      for (const issue of settings.error.issues)
        ctx.addIssue({ code: 'custom', path: ['gameConfig', ...issue.path], message: issue.message });
    if (c.format.kind === 'duplicate-poker' && c.game !== 'poker')
      ctx.addIssue({ code: 'custom', path: ['format'], message: 'duplicate-poker needs game: poker' });
    // A server-run duplicate set deals the same decks to every rotation, and an outside or person
    // entrant plays every rotation: it would know its opponent's cards from the rotation before
    // (and a finished hand's deck is public). Only entrants that forget may play a duplicate.
    if (c.format.kind === 'duplicate-poker' && c.runBy === 'server') {
      const i = c.entrants.findIndex((e) => isOutsideKind(e.kind));
      if (i >= 0)
        ctx.addIssue({
          code: 'custom',
          path: ['entrants', i, 'kind'],
          message:
            "duplicate-poker replays the same decks to every rotation, so an entrant that plays its own seat would see its opponents' cards again: use format round-robin, or runBy: organizer",
        });
    }
  });
export type ArenaConfig = z.infer<typeof ArenaConfigSchema>;
export type ArenaConfigInput = z.input<typeof ArenaConfigSchema>;

export const ORGANIZER = 'organizer';
