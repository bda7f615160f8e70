import { z } from 'zod';
import { type TurnAction, TurnActionSchema } from '../rules/actions.ts';
import { TaskDraftSchema } from '../rules/coordination.ts';

// The seat panel's forms (PlanForm, ProposeForm) as zod schemas over what a person types, and the
// step from those values to the protocol's own action, checked against TurnActionSchema before it
// is sent. Field rules come from the action schema's fields, so the form and the server agree.

const Task = TaskDraftSchema.shape;

/** A dependency list typed as "a, b": each id as a task id is spelt. */
const DependsOn = z
  .string()
  .max(2000)
  .refine(
    (s) =>
      splitIds(s).every(
        (id) => Task.id.safeParse(id).success || /^[A-Za-z0-9_-]{1,40}\/[A-Za-z0-9_-]{1,40}$/.test(id),
      ),
    { message: 'task ids separated by commas (letters, digits, _ and -)' },
  );

export const PlanFormSchema = z.object({
  tasks: z
    .array(
      z.object({
        id: Task.id,
        description: Task.description,
        /** '' for anyone. */
        assignee: z.string().max(40),
        dependsOn: DependsOn,
      }),
    )
    .min(1)
    .max(32)
    .refine((ts) => new Set(ts.map((t) => t.id)).size === ts.length, {
      message: 'each task needs its own id',
    }),
});
export type PlanForm = z.infer<typeof PlanFormSchema>;

export const ProposeFormSchema = z.object({
  content: z.string().trim().min(1, 'say what you propose').max(20_000),
  confidence: z.number({ message: 'a number from 0 to 1' }).min(0).max(1),
  taskIds: z.array(z.string().max(81)).max(32),
  /** The code of a code task ('' sends none: the server says whether the task needs it). */
  source: z.string().max(200_000),
});
export type ProposeForm = z.infer<typeof ProposeFormSchema>;

export function splitIds(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

export const emptyPlan = (assignee: string): PlanForm => ({
  tasks: [{ id: 'task-1', description: '', assignee, dependsOn: '' }],
});

export const emptyProposal = (taskIds: readonly string[]): ProposeForm => ({
  content: '',
  confidence: 0.7,
  taskIds: [...taskIds],
  source: '',
});

export function planAction(f: PlanForm): TurnAction {
  return TurnActionSchema.parse({
    type: 'plan',
    tasks: f.tasks.map((t) => ({
      id: t.id,
      description: t.description,
      assignee: t.assignee === '' ? null : t.assignee,
      dependsOn: splitIds(t.dependsOn),
    })),
  });
}

export function proposeAction(f: ProposeForm, language: string | null): TurnAction {
  return TurnActionSchema.parse({
    type: 'propose',
    content: f.content.trim(),
    confidence: f.confidence,
    taskIds: f.taskIds,
    code: f.source.trim() === '' ? null : { language: language ?? 'javascript', source: f.source },
  });
}

/** A critique or a review of a proposal the seat can see (the legal action's candidates). */
export const JudgeFormSchema = z.object({
  /** '' for none: a general remark. */
  target: z.string().max(40),
  content: z.string().trim().min(1, 'say what you found').max(20_000),
  confidence: z.number({ message: 'a number from 0 to 1' }).min(0).max(1),
  /** A critique's one point (empty: none). */
  issue: z.string().max(2000),
  severity: z.enum(['low', 'medium', 'high', 'critical']),
  /** A review's verdict and score. */
  verdict: z.enum(['approve', 'revise', 'reject']),
  score: z.number({ message: 'a number from 0 to 1' }).min(0).max(1),
});
export type JudgeForm = z.infer<typeof JudgeFormSchema>;

export const emptyJudge = (candidates: readonly string[]): JudgeForm => ({
  target: candidates[0] ?? '',
  content: '',
  confidence: 0.7,
  issue: '',
  severity: 'medium',
  verdict: 'revise',
  score: 0.5,
});

export function judgeAction(kind: 'critique' | 'review', f: JudgeForm): TurnAction {
  const common = {
    target: f.target === '' ? null : f.target,
    content: f.content.trim(),
    confidence: f.confidence,
  };
  return TurnActionSchema.parse(
    kind === 'critique'
      ? {
          type: 'critique',
          ...common,
          points: f.issue.trim() ? [{ issue: f.issue.trim(), severity: f.severity }] : [],
        }
      : { type: 'review', ...common, verdict: f.verdict, score: f.score },
  );
}
