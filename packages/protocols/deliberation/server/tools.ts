import type { CallRecord, Provider } from '@db8/agents';
import { z } from 'zod';
import type { DeliberationView, ToolCall } from '../rules/index.ts';
import { TOOLS } from '../rules/index.ts';
import type { SandboxResult } from './sandbox.ts';

/**
 * Tools for model seats (docs/deliberation.md#tools), when the config's `tools` is on: before a
 * draft (propose, optimize, blue) the seat is asked, through the provider's tool calling, which
 * tools it wants — run the task's tests on a draft of its own, read an earlier code version and
 * its diff, search the lessons the session was given. The server runs them (tests in the
 * sandbox), the seat drafts with the results in its prompt, and each call and its result is
 * recorded in the turn's `toolCalls` (and so in the log and the turns table's `tool_calls`).
 */

export const MAX_TOOL_CALLS = 3;
const OUTPUT_MAX = 4000;

export const ToolRequestSchema = z
  .object({
    calls: z
      .array(
        z
          .object({
            tool: z.enum(TOOLS),
            /** run_tests: the draft's source. */
            source: z.string().max(50_000).nullable(),
            /** read_version: the version number. */
            version: z.number().int().min(1).nullable(),
            /** search_lessons: the words to look for. */
            query: z.string().max(500).nullable(),
          })
          .strict(),
      )
      .max(MAX_TOOL_CALLS),
  })
  .strict();
type ToolRequest = z.infer<typeof ToolRequestSchema>['calls'][number];

export interface ToolContext {
  view: DeliberationView;
  test?: ((code: { language: string; source: string }) => Promise<SandboxResult>) | undefined;
}

const DESCRIPTION = [
  'Before you draft you may call up to three tools (an empty list calls none):',
  '- run_tests {source}: runs the task tests on your draft source in the sandbox;',
  '- read_version {version}: an earlier code version you can see, with its diff and pass rate;',
  '- search_lessons {query}: the lessons from earlier sessions given to this session, by words.',
  'Set the fields a tool does not use to null.',
].join('\n');

async function runOne(req: ToolRequest, ctx: ToolContext): Promise<ToolCall> {
  const v = ctx.view;
  switch (req.tool) {
    case 'run_tests': {
      const source = req.source ?? '';
      const language = v.config.task.language ?? 'javascript';
      if (!ctx.test || !v.config.task.tests || !source)
        return { tool: 'run_tests', input: { source }, ok: false, output: 'no tests to run here' };
      const r = await ctx.test({ language, source });
      return {
        tool: 'run_tests',
        input: { source },
        ok: r.status !== 'unsupported',
        output: r.output.slice(0, OUTPUT_MAX),
      };
    }
    case 'read_version': {
      const n = req.version ?? 0;
      const found = v.codeVersions.find((c) => c.version === n);
      if (!found)
        return {
          tool: 'read_version',
          input: { version: n },
          ok: false,
          output: `no version ${n} you can see`,
        };
      const head = `v${found.version} by ${found.seat} (round ${found.round}, ${found.phase}), pass rate ${found.testPassRate ?? 'not measured'}`;
      return {
        tool: 'read_version',
        input: { version: n },
        ok: true,
        output: [head, found.code, found.diff ? `diff:\n${found.diff}` : ''].join('\n').slice(0, OUTPUT_MAX),
      };
    }
    case 'search_lessons': {
      const query = req.query ?? '';
      const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
      const hits = v.config.lessons.filter((l) => {
        const text = `${l.title} ${l.solution}`.toLowerCase();
        return words.some((w) => text.includes(w));
      });
      return {
        tool: 'search_lessons',
        input: { query },
        ok: true,
        output: hits.length
          ? hits
              .map((l) => `${l.title}: ${l.solution}`)
              .join('\n')
              .slice(0, OUTPUT_MAX)
          : 'no lesson matches',
      };
    }
  }
}

/** Asks the seat which tools it wants, runs them, and returns the calls and their prompt block. */
export async function callTools(
  provider: Provider,
  ask: { system: string; prompt: string; seat: string; signal?: AbortSignal | undefined },
  ctx: ToolContext,
  records: CallRecord[],
): Promise<{ calls: ToolCall[]; brief: string }> {
  const out = await provider.call({
    schemaName: 'deliberation_tools',
    schema: ToolRequestSchema,
    description: DESCRIPTION,
    system: ask.system,
    prompt: `${ask.prompt}\n\n${DESCRIPTION}`,
    seat: ask.seat,
    ...(ask.signal ? { signal: ask.signal } : {}),
  });
  records.push(out.record);
  if (!out.ok) return { calls: [], brief: '' }; // the failed call is in the records; the seat drafts without
  const calls: ToolCall[] = [];
  for (const req of out.value.calls) calls.push(await runOne(req, ctx));
  const brief = calls.length
    ? `Your tool calls and their results:\n${calls
        .map(
          (c) => `${c.tool} ${JSON.stringify(c.input).slice(0, 200)} → ${c.ok ? '' : '(failed) '}${c.output}`,
        )
        .join('\n\n')}`
    : '';
  return { calls, brief };
}
