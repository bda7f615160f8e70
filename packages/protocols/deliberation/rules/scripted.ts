import type { Legal } from '@db8/core';
import type { DeliberationAction } from './actions.ts';
import type { CodeDraft, Reflection, TestResults } from './code.ts';
import type { TaskDraft } from './coordination.ts';
import type { DeliberationView, LegalAction } from './view.ts';

/**
 * A scripted seat: picks a valid action from what `legal()` offers and what the seat's own view
 * shows — never from hidden state — so tests, demos and the server's scripted provider play
 * deliberations without a model. Every choice is a pure function of its inputs.
 */

export interface ScriptContext {
  seat: string;
  round: number;
  phase: DeliberationView['phase'];
  pass: number;
  step: DeliberationView['step'];
  kind: LegalAction['type'];
}

export interface ScriptOptions {
  /** The text of a turn (default: who, what, when). */
  text?: (c: ScriptContext) => string;
  /** Self-reported confidence (default 0.92: dehallucination settles in one pass). */
  confidence?: (c: ScriptContext) => number;
  /** Send a recorded failure instead of content. */
  fail?: (c: ScriptContext) => boolean;
  /** Code for drafts when the task is code (default: a small module naming the seat and round). */
  code?: (c: ScriptContext) => CodeDraft;
  reflections?: (c: ScriptContext) => Reflection[];
  testResults?: (c: ScriptContext) => TestResults | null;
  /** Red-team findings this pass (default: one high finding in pass 1, none after). */
  findings?: (c: ScriptContext) => number;
}

const defaultText = (c: ScriptContext) => `${c.seat} ${c.kind} for round ${c.round} pass ${c.pass}`;

function rankFor(view: DeliberationView, candidates: readonly string[]): string[] {
  // The leader first (when visible), then the layout's order: deterministic and topology-honest.
  const order = view.layout.order;
  return [...candidates].sort((a, b) => {
    const la = a === view.layout.leader ? -1 : order.indexOf(a);
    const lb = b === view.layout.leader ? -1 : order.indexOf(b);
    return la - lb;
  });
}

function planFor(
  view: DeliberationView,
  legal: Extract<LegalAction, { type: 'plan' }>,
  text: string,
): TaskDraft[] {
  if (legal.style === 'dpde')
    return [{ id: 'own', description: text, assignee: null, dependsOn: [], priority: 1 }];
  // cpde: the leader designs first, then every other seat builds its part on the design; in a
  // star the hub speaks last, so the spokes' parts come first and the hub integrates them.
  const { order, hub } = view.layout;
  if (view.layout.kind === 'star' && hub)
    return order.map((seat, i) => ({
      id: `t${i}`,
      description: `${seat === hub ? 'integrate the parts' : 'build part'} for ${seat}`,
      assignee: seat,
      dependsOn: seat === hub ? order.filter((x) => x !== hub).map((x) => `t${order.indexOf(x)}`) : [],
      priority: seat === hub ? 1 : 10,
    }));
  return order.map((seat, i) => ({
    id: `t${i}`,
    description: `${i === 0 ? 'design' : 'build part'} for ${seat}`,
    assignee: seat,
    dependsOn: i === 0 ? [] : ['t0'],
    priority: i === 0 ? 10 : 1,
  }));
}

export function scriptedAction(
  view: DeliberationView,
  legal: Legal,
  opts: ScriptOptions = {},
): DeliberationAction | null {
  const seat = view.you.seat;
  const turn = (legal.actions as readonly LegalAction[]).find(
    (a) => a.type !== 'forfeit' && a.type !== 'failed' && a.type !== 'measure',
  );
  if (!seat || !turn || !legal.turnToken) return null;
  const c: ScriptContext = {
    seat,
    round: view.round,
    phase: view.phase,
    pass: view.pass,
    step: view.step,
    kind: turn.type,
  };
  if (opts.fail?.(c))
    return { type: 'failed', error: { code: 'provider_error', message: 'scripted failure' }, call: null };
  const content = (opts.text ?? defaultText)(c);
  const confidence = opts.confidence?.(c) ?? 0.92;
  const code = (
    opts.code ??
    ((x: ScriptContext) => ({
      language: 'typescript',
      source: `// ${x.seat} round ${x.round}\nexport const answer = ${x.round};\n`,
    }))
  )(c);
  const extras = {
    reflections: opts.reflections?.(c) ?? [],
    testResults: opts.testResults?.(c) ?? null,
    call: null,
  };
  switch (turn.type) {
    case 'clarify':
      return {
        type: 'clarify',
        questions: [{ question: `${content}?`, category: 'scope', priority: 'medium' }],
        content,
        confidence,
        call: null,
      };
    case 'evolve':
      return {
        type: 'evolve',
        selfTests: [{ check: 'answers the topic', passed: true }],
        content,
        confidence,
        call: null,
      };
    case 'plan':
      return { type: 'plan', tasks: planFor(view, turn, content), call: null };
    case 'propose':
      return {
        type: 'propose',
        content,
        taskIds: turn.tasks,
        confidence,
        code: turn.code ? code : null,
        ...extras,
      };
    case 'critique':
    case 'review':
    case 'optimize': {
      const target = turn.candidates.find((x) => x !== seat) ?? turn.candidates[0] ?? null;
      const support = rankFor(view, turn.candidates)[0] ?? null;
      if (turn.type === 'critique')
        return {
          type: 'critique',
          target,
          points: [{ issue: content, severity: 'medium' }],
          content,
          confidence,
          support,
          call: null,
        };
      if (turn.type === 'review')
        return {
          type: 'review',
          target,
          verdict: 'approve',
          score: confidence,
          content,
          confidence,
          support,
          call: null,
        };
      return {
        type: 'optimize',
        target,
        content,
        confidence,
        support,
        code: 'code' in turn && turn.code ? code : null,
        ...extras,
      };
    }
    case 'red': {
      const n = opts.findings?.(c) ?? (c.pass === 1 ? 1 : 0);
      const findings = Array.from({ length: n }, (_, i) => ({
        id: `f${i + 1}`,
        title: `${content} finding ${i + 1}`,
        severity: 'high' as const,
        evidence: `${content} evidence ${i + 1}`,
      }));
      return { type: 'red', findings, risk: n > 0 ? 0.5 : 0.1, content, confidence, call: null };
    }
    case 'blue':
      return {
        type: 'blue',
        patches: turn.findings.map((finding) => ({ finding, patch: `${content} patch` })),
        content,
        confidence,
        code: null,
        ...extras,
      };
    case 'converge':
      return {
        type: 'converge',
        ranking: rankFor(view, turn.candidates),
        content,
        confidence,
        dissent: null,
        call: null,
      };
    default:
      return null;
  }
}
