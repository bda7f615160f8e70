import { fileURLToPath } from 'node:url';
import type { ModuleRuntime, ProtocolModule, Store } from '@db8/server/kit';
import { migrationsIn } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { type DebateView, debate, debateEvents, debateTimer } from '../rules/index.ts';
import { debateAgent } from './agent.ts';
import { debateAgentRecord, shareRatings } from './agent-record.ts';
import { deadLetterRoutes, type SubmitLimit, submissionWatch, submitLimitFromEnv } from './dead-letters.ts';
import { identityBinding, roomCaKeysOf, withRoomCa } from './hooks.ts';
import { DebateJournalGit } from './journal-git.ts';
import { operateRoutes } from './operate.ts';
import { DebateRatings, type IdentityLookup } from './ratings.ts';
import { policyFromEnv } from './research/address.ts';
import { bindResearchTool, type ResearchTool } from './research/agent-tool.ts';
import { type ResearchOptions, researchLimitFromEnv, researchRoutes } from './research/routes.ts';
import { ratingRoutes } from './routes.ts';
import { debateScript } from './scripted.ts';
import { seedCompatRoutes } from './seed-compat.ts';
import { debateSkillDoc } from './skill.ts';

export { DEAD_LETTER_CODES, type SubmitLimit, submitLimitFromEnv } from './dead-letters.ts';
export { identityBinding, withRoomCa } from './hooks.ts';
export { DebateJournalGit, JOURNAL_NAMESPACE, journalRef } from './journal-git.ts';
export { DebateRatings, type IdentityLookup, type RatingsSnapshot } from './ratings.ts';
export { type AddressPolicy, policyFromEnv, STRICT_POLICY } from './research/address.ts';
export {
  ALLOWED_TYPES,
  DEFAULT_LIMITS,
  type FetchLimits,
  ResearchError,
  safeFetch,
} from './research/fetch.ts';
export { type ResearchLimit, type ResearchOptions, researchLimitFromEnv } from './research/routes.ts';

/**
 * A principal as the ratings show it: agents and people only (an admin's id is not published), and
 * `scripted` when it registered with `metadata: {scripted: true}` (docs/debate.md, "Ratings").
 */
export function principalLookup(store: Pick<Store, 'principals'>): IdentityLookup {
  return async (id) => {
    const p = await store.principals.get(id);
    if (!p || (p.kind !== 'agent' && p.kind !== 'person')) return null;
    return { name: p.displayName, scripted: p.meta.scripted === true };
  };
}

export interface DebatePlugin {
  ratings: DebateRatings;
  /** The git journal writer, when a repository was given. */
  journal: DebateJournalGit | null;
  /** The rooms' research cache (docs/debate.md, "Research"). */
  research: ResearchTool;
}

/**
 * Debate's background side (docs/debate.md, "Running a debate"): the ratings API, refolded
 * whenever a room closes, and — with `journalGit` (default $DB8_JOURNAL_GIT), a git repository
 * path — each published round committed to `refs/_db8/journal/<room>`.
 */
export async function registerDebate(
  app: FastifyInstance,
  opts: {
    runtime: Pick<
      ModuleRuntime,
      | 'getRoom'
      | 'act'
      | 'serverAct'
      | 'listRooms'
      | 'entries'
      | 'stateFor'
      | 'serverKey'
      | 'watchActs'
      | 'protocolState'
      | 'seatOf'
      | 'now'
    >;
    journalGit?: string;
    /** Submissions per (room, author) (default $DB8_DEBATE_SUBMIT_LIMIT, else 12 a minute). */
    submitLimit?: SubmitLimit;
    /** Names and scripted flags of principals (default: the app's store). */
    lookup?: IdentityLookup;
    /**
     * The research tool's address policy, limits and per-seat rate (default: strict, from
     * $DB8_RESEARCH_ALLOW_PRIVATE, $DB8_RESEARCH_ALLOW_HOSTS and $DB8_RESEARCH_LIMIT).
     */
    research?: ResearchOptions;
  },
): Promise<DebatePlugin> {
  const ratings = new DebateRatings(opts.runtime, Date.now, opts.lookup ?? principalLookup(app.db8.store));
  ratingRoutes(app, ratings);
  shareRatings(opts.runtime, ratings);
  seedCompatRoutes(app, opts.runtime);
  // Needs debate's own table (debateModule.migrations, applied by mountModules).
  const db = app.db8.store.db;
  deadLetterRoutes(app, opts.runtime, db);
  const research = researchRoutes(
    app,
    opts.runtime,
    db,
    app.db8.clock,
    opts.research ?? {
      policy: policyFromEnv(process.env),
      rate: researchLimitFromEnv(process.env.DB8_RESEARCH_LIMIT),
    },
  );
  operateRoutes(app, opts.runtime, app.db8.store);
  const limit = opts.submitLimit ?? submitLimitFromEnv(process.env.DB8_DEBATE_SUBMIT_LIMIT);
  const unwatch = opts.runtime.watchActs(submissionWatch(db, limit, app.db8.clock));
  const repo = opts.journalGit ?? (process.env.DB8_JOURNAL_GIT || undefined);
  const journal = repo
    ? new DebateJournalGit(repo, opts.runtime, (err, roomId) =>
        app.log.warn({ err, roomId }, 'debate: git journal'),
      )
    : null;
  const unbind = bindResearchTool(research);
  const stop = app.db8.bus.subscribe('*', (e) => {
    if (e.kind === 'close') ratings.invalidate();
    // A round is published by an entry that reveals its submissions.
    if (journal && (e.reveals?.length ?? 0) > 0) void journal.sync(e.room);
  });
  app.addHook('preClose', async () => {
    stop();
    unwatch();
    unbind();
    await journal?.flush();
  });
  return { ratings, journal, research };
}

/** Seed 000's structured debate. */
export const debateModule: ProtocolModule = {
  protocol: debate,
  migrations: migrationsIn(fileURLToPath(new URL('./migrations', import.meta.url))),
  prepareConfig: (config, ctx) => withRoomCa(config, ctx.caPublicLine),
  onJoin: identityBinding,
  loginCaKeys: roomCaKeysOf,
  agent: debateAgent,
  // A driven seat is held by the driver's principal: the unmask names it and the ratings rate it.
  holdDrivenSeats: true,
  scripted: () => debateScript,
  skillDoc: debateSkillDoc,
  agentRecord: debateAgentRecord((rt) => principalLookup(rt.store)),
  // Seed 000's typed events, from each viewer's own views (the runtime builds them with debate.view).
  events: {
    changes: (roomId, prev, next) => debateEvents(roomId, prev as DebateView | null, next as DebateView),
    timer: (roomId, view) => debateTimer(roomId, view as DebateView),
  },
  routes: async (app, ctx) => {
    await registerDebate(app, {
      runtime: ctx.runtime,
      ...(ctx.env.DB8_JOURNAL_GIT ? { journalGit: ctx.env.DB8_JOURNAL_GIT } : {}),
      submitLimit: submitLimitFromEnv(ctx.env.DB8_DEBATE_SUBMIT_LIMIT),
      research: { policy: policyFromEnv(ctx.env), rate: researchLimitFromEnv(ctx.env.DB8_RESEARCH_LIMIT) },
    });
  },
};
