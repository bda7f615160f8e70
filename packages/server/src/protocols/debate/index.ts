import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime/index.ts';
import { debateRoomHooks } from './hooks.ts';
import { DebateJournalGit } from './journal-git.ts';
import { DebateRatings } from './ratings.ts';
import { ratingRoutes } from './routes.ts';

export { bindIdentity, withRoomCa } from './hooks.ts';
export { DebateJournalGit, JOURNAL_NAMESPACE, journalRef } from './journal-git.ts';
export { DebateRatings, type RatingsSnapshot } from './ratings.ts';

export interface DebatePlugin {
  ratings: DebateRatings;
  /** The git journal writer, when a repository was given. */
  journal: DebateJournalGit | null;
}

/**
 * The debate protocol's server side (docs/debate.md, "Running a debate"), added to an app built by
 * buildApp before it listens: the room CA in every debate room's trust, identity binding on join,
 * the ratings API, refolded whenever a room closes, and — with `journalGit` (default
 * $DB8_JOURNAL_GIT), a git repository path — each published round committed to
 * `refs/_db8/journal/<room>`.
 */
export async function registerDebate(
  app: FastifyInstance,
  opts: {
    runtime: Pick<Runtime, 'getRoom' | 'act' | 'listRooms' | 'entries' | 'stateFor' | 'serverKey'>;
    journalGit?: string;
  },
): Promise<DebatePlugin> {
  const ratings = new DebateRatings(opts.runtime);
  debateRoomHooks(app, opts.runtime);
  ratingRoutes(app, ratings);
  const repo = opts.journalGit ?? (process.env.DB8_JOURNAL_GIT || undefined);
  const journal = repo
    ? new DebateJournalGit(repo, opts.runtime, (err, roomId) =>
        app.log.warn({ err, roomId }, 'debate: git journal'),
      )
    : null;
  const stop = app.db8.bus.subscribe('*', (e) => {
    if (e.kind === 'close') ratings.invalidate();
    // A round is published by an entry that reveals its submissions.
    if (journal && (e.reveals?.length ?? 0) > 0) void journal.sync(e.room);
  });
  app.addHook('preClose', async () => {
    stop();
    await journal?.flush();
  });
  return { ratings, journal };
}
