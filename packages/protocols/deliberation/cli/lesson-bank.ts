// The lesson bank of local runs (`db8 deliberate` without --url): the server's own tables and SQL
// (this module's migrations, storage/lessons*.ts) in an embedded PGlite database under the CLI's
// home, `<home>/deliberation/lessons`, held under the CLI kit's directory lock while open (one
// process at a time, as the council index). docs/deliberation.md#lessons-given.
import { join } from 'node:path';
import { type DirLock, db8Home, lockDir } from '@db8/cli/kit-run';
import { migrate, pgliteDriver, type SqlDriver } from '@db8/server/kit';
import type { DeliberationState, GivenLesson } from '../rules/index.ts';
import { deliberationModule } from '../server/index.ts';
import {
  countGivenLessons,
  type Lesson,
  type LessonFilter,
  lessonsForTask,
  listLessons,
  projectSession,
} from '../server/storage/index.ts';

export function lessonBankDir(home: string = db8Home()): string {
  return join(home, 'deliberation', 'lessons');
}

export class LocalLessonBank {
  private constructor(
    private readonly db: SqlDriver,
    private readonly lock: DirLock,
  ) {}

  /** Locks and opens the bank (made, with its tables, on first use). Close it soon: others wait. */
  static async open(home: string = db8Home()): Promise<LocalLessonBank> {
    const dir = lessonBankDir(home);
    const lock = await lockDir(dir, `${dir}.lock`);
    try {
      const db = await pgliteDriver(dir);
      try {
        await migrate(db, deliberationModule.migrations ?? []);
      } catch (e) {
        await db.close().catch(() => {});
        throw e;
      }
      return new LocalLessonBank(db, lock);
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /** The lessons a new session on this task is given: the server's search (lessons-given.ts). */
  given(
    config: { topic: string; task?: { kind?: string } | undefined },
    now: number,
  ): Promise<GivenLesson[]> {
    return lessonsForTask(this.db, config, now);
  }

  /**
   * After a run: its session row and lessons (a session that reached consensus teaches; the same
   * lesson again is merged into the stored one), and the use of the lessons it was given.
   */
  async record(state: DeliberationState, completedAt: number): Promise<{ stored: number; counted: number }> {
    const roomId = state.config.sessionId;
    const p = await projectSession(this.db, { roomId, state, completedAt });
    const counted = await countGivenLessons(this.db, roomId, state, completedAt);
    return { stored: p.lessons, counted };
  }

  list(filter: LessonFilter & { limit?: number; now: number }): Promise<Lesson[]> {
    return listLessons(this.db, filter);
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      await this.lock.release();
    }
  }
}
