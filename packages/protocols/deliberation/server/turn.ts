import type { CallRecord, Provider } from '@db8/agents';
import {
  type CallMeta,
  type DeliberationAction,
  type DeliberationView,
  type GivenLesson,
  type LegalAction,
  OPERATOR,
  phaseSettings,
  type Reflection,
  ReflectionSchema,
  type TestResults,
  type Turn,
} from '../rules/index.ts';
import type { SandboxResult } from './sandbox.ts';
import { callTools } from './tools.ts';
import { replySchema } from './turn-reply.ts';

/**
 * One deliberation turn played by a model (docs/deliberation.md#drivers): the seat's own view and
 * legal action become one structured call whose reply schema is built from what `legal()` offers
 * (candidates, tasks, findings as enums, so a model cannot name what its topology hides); the reply
 * becomes the action, with the call's provenance in `call`. A failed call becomes the protocol's
 * `failed` turn with its error and provenance — never invented content.
 *
 * Drafts with code in a code task with tests run Reflexion: the draft's code runs in the sandbox;
 * while tests fail and attempts remain, the model writes a reflection {rootCause, whatWentWrong,
 * whatToChange, confidence} on the failing output, then a new draft with its reflections in the
 * prompt. The submitted draft carries the last run's test results (with every attempt's line) and
 * the reflections. The server's own measurement of the version is the operator's `measure`.
 */

export type TurnKind = Exclude<
  LegalAction['type'],
  'failed' | 'forfeit' | 'approve' | 'reject' | 'measure' | 'cancel'
>;

export interface TurnContext {
  seat: string;
  view: DeliberationView;
  legal: readonly LegalAction[];
  persona?: string | null;
}

export interface TurnOptions {
  signal?: AbortSignal;
  /** Runs the task's tests against a draft's code (the server's sandbox). Absent: no reflexion. */
  test?: (code: { language: string; source: string }) => Promise<SandboxResult>;
}

export interface TurnOutcome {
  action: DeliberationAction;
  /** Every call the turn made, in order (a reflexion turn makes several). */
  records: CallRecord[];
  /** Set when the turn is a recorded failure. */
  error: { code: string; message: string } | null;
}

const ROLE_BRIEF: Record<string, string> = {
  proposer: 'You propose solutions.',
  generator: 'You generate candidate solutions.',
  critic: 'You find weaknesses in proposals.',
  reviewer: 'You review proposals for correctness and completeness.',
  optimizer: 'You improve the best proposal.',
  refactorer: 'You restructure solutions for clarity.',
  moderator: 'You moderate: gather the others and keep the session on task.',
  architect: 'You design the overall solution.',
  security: 'You look for security problems.',
  test_agent: 'You think about how solutions are tested.',
  validator: 'You validate claims and results.',
  red_team: 'You attack the proposals: find concrete, evidenced weaknesses.',
  blue_team: 'You defend: patch the weaknesses the red team found.',
  teacher: 'You explain and teach.',
};

const WHAT: Record<TurnKind, string> = {
  clarify:
    'Ask the clarifying questions the task needs (category, priority) and say how confident you are that it is clear.',
  evolve: 'Test your own understanding (self-tests that pass or fail) and refine it.',
  plan: 'Write the task plan for this round: tasks with ids, assignees, dependencies and priorities.',
  propose: 'Propose your solution.',
  critique:
    'Critique a proposal you can see (target), with points and severities; support the one you find best.',
  review: 'Review a proposal you can see (target): verdict, score 0-1; support the one you find best.',
  optimize: 'Improve the best proposal you can see (target); support it.',
  red: 'Attack the proposals: findings with id, title, severity and evidence, and the remaining risk (0-1).',
  blue: 'Patch each finding you can see (finding ids as given).',
  converge: 'Rank the proposals you can see, best first (an empty ranking abstains); give any dissent.',
};

function summaryOf(t: Turn): Record<string, unknown> {
  const a = t.action;
  const base = { seq: t.seq, seat: t.seat, role: t.role, round: t.round, phase: t.phase, pass: t.pass };
  switch (a.type) {
    case 'failed':
      return { ...base, failed: a.error.code };
    case 'plan':
      return { ...base, plan: a.tasks.map((x) => `${x.id}: ${x.description}`) };
    case 'critique':
      return { ...base, target: a.target, points: a.points, content: a.content, support: a.support };
    case 'review':
      return { ...base, target: a.target, verdict: a.verdict, score: a.score, content: a.content };
    case 'red':
      return { ...base, findings: a.findings, risk: a.risk };
    case 'blue':
      return { ...base, patches: a.patches, content: a.content };
    case 'converge':
      return { ...base, ranking: a.ranking, content: a.content, dissent: a.dissent };
    default:
      return { ...base, content: a.content, codeVersion: t.codeVersion };
  }
}

function clip(value: unknown, max: number): string {
  const s = JSON.stringify(value);
  return s.length <= max ? s : `${s.slice(0, max)}…(truncated)`;
}

/** The context block: what the seat's own view and legal action say (the scripted cast reads it too). */
export const CONTEXT_MARK = 'CONTEXT: ';

/** The lessons the server gave this session (config.lessons), as the prompt shows them. */
export function lessonsBrief(lessons: readonly GivenLesson[]): string {
  if (lessons.length === 0) return '';
  return [
    'Lessons from earlier sessions (apply what fits; they were found by searching the lesson bank for this task):',
    ...lessons.map(
      (l) => `- [${l.category}, ${l.tier}, score ${l.score}] ${l.title}: ${l.solution.slice(0, 1500)}`,
    ),
  ].join('\n');
}

export function turnPrompt(
  ctx: TurnContext,
  turn: LegalAction,
  extra: string[] = [],
): { system: string; prompt: string } {
  const v = ctx.view;
  const me = v.config.seats.find((s) => s.id === ctx.seat);
  const role = me?.role ?? 'proposer';
  const settings = phaseSettings(v.config, v.phase);
  const system = [
    `You are ${ctx.seat}, a ${role} in an orchestrated deliberation (db8). ${ROLE_BRIEF[role] ?? ''}`,
    'You see only what your topology shows you. Reply only with the requested JSON.',
    ctx.persona ? `Your persona: ${ctx.persona}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const task = v.config.task;
  const latest = v.codeVersions.at(-1);
  const lines = [
    `Task: ${v.config.topic}`,
    task.kind === 'code'
      ? `This is a code task in ${task.language ?? 'javascript'}: drafts carry code {language, source} as an ES module.${task.tests ? `\nThe tests your code must pass (they import ./solution.mjs):\n${task.tests.slice(0, 6000)}` : ''}`
      : '',
    lessonsBrief(v.config.lessons),
    `Round ${v.round} of ${v.config.maxRounds}, phase ${v.phase} (pass ${v.pass}, step ${v.step}). ${WHAT[turn.type as TurnKind] ?? ''}`,
    settings.prompt ?? '',
    v.plan
      ? `Plan (${v.plan.style}): ${clip(
          v.plan.tasks.map((t) => ({
            id: t.id,
            assignee: t.assignee,
            status: t.status,
            description: t.description,
          })),
          3000,
        )}`
      : '',
    latest
      ? `Latest code version you can see: v${latest.version} by ${latest.seat}, pass rate ${latest.testPassRate ?? 'not measured'}\n${latest.code.slice(0, 6000)}`
      : '',
    v.rounds.length
      ? `Earlier rounds: ${clip(
          v.rounds.map((o) => ({
            round: o.round,
            winner: o.winner,
            confidence: o.confidence,
            summary: o.summary,
          })),
          2000,
        )}`
      : '',
    `Turns you can see: ${clip(v.turns.map(summaryOf), 12_000)}`,
    ...extra,
    `${CONTEXT_MARK}${JSON.stringify({
      seat: ctx.seat,
      round: v.round,
      phase: v.phase,
      pass: v.pass,
      step: v.step,
      layout: v.layout,
      legal: turn,
    })}`,
  ];
  return { system, prompt: lines.filter(Boolean).join('\n\n') };
}

/** The provenance an action carries: summed over the turn's calls. */
export function callMetaOf(records: readonly CallRecord[]): CallMeta | null {
  const last = records.at(-1);
  if (!last) return null;
  const cost = records.some((r) => r.costUsd === null)
    ? null
    : records.reduce((s, r) => s + (r.costUsd ?? 0), 0);
  return {
    provider: last.profile,
    model: last.model,
    latencyMs: records.reduce((s, r) => s + r.durationMs, 0),
    inputTokens: records.reduce((s, r) => s + r.usage.inputTokens, 0),
    outputTokens: records.reduce((s, r) => s + r.usage.outputTokens, 0),
    costUsd: cost,
  };
}

/** The turn a seat holds now (the legal action other than failed/forfeit/gates/measure), if any. */
export function turnOf(legal: readonly LegalAction[]): LegalAction | null {
  return (
    legal.find((a) => !['failed', 'forfeit', 'approve', 'reject', 'measure', 'cancel'].includes(a.type)) ??
    null
  );
}

/** A stable key for the seat's turn in this step (the host runs each once). */
export function turnKey(view: DeliberationView): string {
  return `turn:${view.round}.${view.phase}.${view.pass}.${view.step}`;
}

const failedAction = (code: string, message: string, records: CallRecord[]): TurnOutcome => ({
  action: {
    type: 'failed',
    error: {
      code: code.replace(/[^A-Za-z_]/g, '_').slice(0, 40) || 'failed',
      message: message.slice(0, 2000),
    },
    call: callMetaOf(records),
  },
  records,
  error: { code, message },
});

function testLine(attempt: number, r: SandboxResult): string {
  return `attempt ${attempt}: ${r.passed}/${r.total} passed (${r.status})`;
}

/** Play one turn with `provider`. Never throws for a failed call. */
export async function playTurn(
  ctx: TurnContext,
  provider: Provider,
  opts: TurnOptions = {},
): Promise<TurnOutcome | null> {
  if (ctx.seat === OPERATOR) return null;
  const turn = turnOf(ctx.legal);
  if (!turn) return null;
  const kind = turn.type as TurnKind;
  const v = ctx.view;
  const codeTask = v.config.task.kind === 'code';
  const schema = replySchema(turn, codeTask && (kind === 'propose' || kind === 'optimize'));
  const records: CallRecord[] = [];
  const ask = async (extra: string[]) => {
    const { system, prompt } = turnPrompt(ctx, turn, extra);
    const out = await provider.call({
      schemaName: `deliberation_${kind}`,
      schema,
      description: WHAT[kind],
      system,
      prompt,
      seat: ctx.seat,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    records.push(out.record);
    return out;
  };
  // Tools before a draft, when the session allows them (tools.ts); never for the scripted cast.
  const drafting = kind === 'propose' || kind === 'optimize' || kind === 'blue';
  const tools =
    v.config.tools && drafting && !provider.scripted
      ? await callTools(
          provider,
          { ...turnPrompt(ctx, turn), seat: ctx.seat, signal: opts.signal },
          { view: v, test: opts.test },
          records,
        )
      : { calls: [], brief: '' };
  let out = await ask(tools.brief ? [tools.brief] : []);
  if (!out.ok) return failedAction(out.error.code, out.error.message, records);
  let body = out.value;
  const reflections: Reflection[] = [];
  let testResults: TestResults | null = null;
  const maxReflections = 'maxReflections' in turn ? turn.maxReflections : 0;
  const tests = v.config.task.tests;
  if (codeTask && tests && opts.test && (kind === 'propose' || kind === 'optimize' || kind === 'blue')) {
    const history: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const code = body.code as { language: string; source: string } | null;
      if (!code) break;
      const r = await opts.test(code);
      if (r.status === 'unsupported') break;
      history.push(testLine(attempt, r));
      testResults = {
        passed: r.passed,
        failed: r.failed,
        output: [...history, '', r.output].join('\n').slice(0, 20_000),
      };
      if (r.passRate === 1 || reflections.length >= maxReflections) break;
      const reflect = await provider.call({
        schemaName: 'deliberation_reflection',
        schema: ReflectionSchema,
        description: 'Reflect on why the tests failed before trying again.',
        system: turnPrompt(ctx, turn).system,
        prompt: [
          `Your draft (attempt ${attempt}) failed the task's tests.`,
          `Code:\n${code.source.slice(0, 8000)}`,
          `Test output:\n${r.output.slice(0, 6000)}`,
          reflections.length ? `Your earlier reflections: ${JSON.stringify(reflections)}` : '',
          'Write a reflection: the root cause, what went wrong, what to change next, and your confidence.',
        ]
          .filter(Boolean)
          .join('\n\n'),
        seat: ctx.seat,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      records.push(reflect.record);
      if (!reflect.ok) break; // the draft stands as tested; the failed call is in the records
      reflections.push(reflect.value);
      out = await ask([
        `Your previous attempt failed the tests:\n${r.output.slice(0, 4000)}`,
        `Your reflections so far: ${JSON.stringify(reflections)}`,
        'Write the draft again, applying what your reflections say to change.',
      ]);
      if (!out.ok) return failedAction(out.error.code, out.error.message, records);
      body = out.value;
    }
  }
  const call = callMetaOf(records);
  const action = {
    type: kind,
    ...body,
    ...(drafting ? { testResults, reflections } : {}),
    ...(tools.calls.length ? { toolCalls: tools.calls } : {}),
    call,
  } as DeliberationAction;
  return { action, records, error: null };
}
