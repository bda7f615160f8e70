// `db8 lessons`: the local lesson bank (lesson-bank.ts), best first, as the server lists its own.
import { CliError, EXIT_USAGE, writeStdout } from '@db8/cli/kit';
import type { LessonsOptions } from './index.ts';
import { LocalLessonBank } from './lesson-bank.ts';

export async function listLocalLessons(opts: LessonsOptions): Promise<void> {
  const minScore = opts.minScore === undefined ? undefined : Number(opts.minScore);
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1))
    throw new CliError(EXIT_USAGE, '--min-score must be a number 0-1');
  const limit = Number(opts.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new CliError(EXIT_USAGE, '--limit must be an integer 1-200');
  const bank = await LocalLessonBank.open();
  let lessons: Awaited<ReturnType<LocalLessonBank['list']>>;
  try {
    lessons = await bank.list({ limit, now: Date.now(), ...(minScore !== undefined ? { minScore } : {}) });
  } finally {
    await bank.close();
  }
  if (opts.json) {
    await writeStdout(`${JSON.stringify({ lessons }, null, 2)}\n`);
    return;
  }
  if (lessons.length === 0) {
    await writeStdout('no local lessons yet: a local `db8 deliberate` that reaches consensus keeps some\n');
    return;
  }
  await writeStdout(
    `${lessons
      .map(
        (l) =>
          `${l.id}  ${l.tier} ${l.score.toFixed(2)} ${l.category} · used ${l.uses.applied} (${l.uses.succeeded} ok) · from ${l.debateId}\n  ${l.title}`,
      )
      .join('\n')}\n`,
  );
}
