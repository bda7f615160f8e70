import { z } from 'zod';

/**
 * Coordination (MARBLE's planning styles, as upstream names them):
 *   cpde      the leader writes the round's task plan; seats then work on ready tasks.
 *   dpde      every seat writes its own sub-plan; the plans merge deterministically.
 *   adaptive  picks one of the two per round from upstream's thresholds on task complexity,
 *             ambiguity (fed by the dehallucination phase) and seat count.
 * A task is ready when every task it depends on is done (or failed: a failure unblocks, it is
 * recorded, and nobody waits forever).
 */

export const TaskDraftSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    description: z.string().min(1).max(2000),
    /** Seat to do it (cpde); a dpde sub-plan's tasks are its author's. Null: anyone. */
    assignee: z.string().max(40).nullable().default(null),
    dependsOn: z.array(z.string().max(81)).max(32).default([]),
    priority: z.number().int().min(0).max(100).default(0),
  })
  .strict();
export type TaskDraft = z.infer<typeof TaskDraftSchema>;

export interface Task {
  /** Plan-wide id: the draft's id under cpde, `seat/id` under dpde. */
  id: string;
  description: string;
  assignee: string | null;
  dependsOn: string[];
  priority: number;
  status: 'pending' | 'done' | 'failed';
  /** The turn that completed or failed it. */
  seq: number | null;
}

export interface Plan {
  style: 'cpde' | 'dpde';
  tasks: Task[];
  /** Dependency edges dropped while merging (unknown targets or cycles), as `from->to`. */
  dropped: string[];
}

export interface Signals {
  complexity: number;
  ambiguity: number;
  seats: number;
}

/** Upstream's SelectStyle, thresholds unchanged; the fallback (default style) is cpde. */
export function selectStyle(s: Signals): 'cpde' | 'dpde' {
  if (s.complexity > 0.7 && s.ambiguity < 0.3) return 'cpde';
  if (s.ambiguity > 0.6) return 'dpde';
  if (s.seats <= 3) return 'cpde';
  if (s.seats > 8) return 'dpde';
  return 'cpde';
}

/**
 * Merge plans into one: tasks in contribution order (authors in layout order, tasks as written),
 * dependencies resolved (a dpde dependency names `seat/id`, or a bare id of the same author), and
 * every edge that would close a cycle or names no task dropped — first come, first kept.
 */
export function mergePlans(
  style: 'cpde' | 'dpde',
  parts: readonly { author: string; tasks: readonly TaskDraft[] }[],
): Plan {
  const tasks: Task[] = [];
  const dropped: string[] = [];
  for (const p of parts)
    for (const t of p.tasks) {
      const id = style === 'dpde' ? `${p.author}/${t.id}` : t.id;
      if (tasks.some((x) => x.id === id)) continue;
      const assignee = style === 'dpde' ? p.author : t.assignee;
      tasks.push({
        id,
        description: t.description,
        assignee,
        dependsOn: [],
        priority: t.priority,
        status: 'pending',
        seq: null,
      });
    }
  const edges = (id: string) => tasks.find((t) => t.id === id)?.dependsOn ?? [];
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const x = stack.pop()!;
      if (x === to) return true;
      if (seen.has(x)) continue;
      seen.add(x);
      stack.push(...edges(x));
    }
    return false;
  };
  for (const p of parts)
    for (const t of p.tasks) {
      const id = style === 'dpde' ? `${p.author}/${t.id}` : t.id;
      const task = tasks.find((x) => x.id === id)!;
      for (const d of t.dependsOn) {
        const dep = style === 'dpde' && !d.includes('/') ? `${p.author}/${d}` : d;
        if (!tasks.some((x) => x.id === dep) || dep === id || reaches(dep, id)) dropped.push(`${id}->${dep}`);
        else if (!task.dependsOn.includes(dep)) task.dependsOn.push(dep);
      }
    }
  return { style, tasks, dropped };
}

export function readyTasks(plan: Plan): Task[] {
  const settled = new Set(plan.tasks.filter((t) => t.status !== 'pending').map((t) => t.id));
  return plan.tasks
    .filter((t) => t.status === 'pending' && t.dependsOn.every((d) => settled.has(d)))
    .sort((a, b) => b.priority - a.priority);
}

/** Tasks `seat` may take now: ready ones assigned to it or to nobody. */
export function tasksFor(plan: Plan | null, seat: string): Task[] {
  return plan ? readyTasks(plan).filter((t) => t.assignee === null || t.assignee === seat) : [];
}

/** Does `seat` have work it can do now, or no pending work at all (so waiting is pointless)? */
export function taskReady(plan: Plan | null, seat: string): boolean {
  if (!plan) return true;
  const mine = plan.tasks.filter((t) => t.assignee === seat && t.status === 'pending');
  return mine.length === 0 || tasksFor(plan, seat).some((t) => t.assignee === seat);
}

export function settleTasks(
  plan: Plan,
  ids: readonly string[],
  status: 'done' | 'failed',
  seq: number,
): Plan {
  return {
    ...plan,
    tasks: plan.tasks.map((t) => (ids.includes(t.id) && t.status === 'pending' ? { ...t, status, seq } : t)),
  };
}
