import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import type { Phase } from './config.ts';

/**
 * Code versions and reflexion. When the task is code, proposals and optimizations carry code (blue
 * team patches may); each accepted draft becomes version n with a unified diff from version n − 1.
 * Quality metrics and the test pass rate are measured outside (the server's sandbox) and enter as
 * `measure` actions: the protocol records what it is given, never a number of its own.
 */

export const CodeDraftSchema = z
  .object({
    language: z.string().min(1).max(40),
    source: z.string().max(200_000),
  })
  .strict();
export type CodeDraft = z.infer<typeof CodeDraftSchema>;

/** A Reflexion entry: written after failing tests, before the next attempt. */
export const ReflectionSchema = z
  .object({
    rootCause: z.string().min(1).max(4000),
    whatWentWrong: z.string().min(1).max(4000),
    whatToChange: z.string().min(1).max(4000),
    confidence: z.number().min(0).max(1),
  })
  .strict();
export type Reflection = z.infer<typeof ReflectionSchema>;

/** Test outcomes a driver ran before submitting (recorded as given). */
export const TestResultsSchema = z
  .object({
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    output: z.string().max(20_000).default(''),
  })
  .strict();
export type TestResults = z.infer<typeof TestResultsSchema>;

export const MeasurementSchema = z
  .object({
    qualityScore: z.number().min(0).max(1).nullable(),
    testPassRate: z.number().min(0).max(1).nullable(),
    metrics: z.record(z.string().max(60), z.number()).default({}),
  })
  .strict();
export type Measurement = z.infer<typeof MeasurementSchema>;

export interface CodeVersion {
  version: number;
  /** The seq of the turn that produced it. */
  turnSeq: number;
  seat: string;
  round: number;
  phase: Phase;
  language: string;
  code: string;
  /** Unified diff from version − 1 (null for version 1). */
  diff: string | null;
  qualityScore: number | null;
  testPassRate: number | null;
  metrics: Record<string, number>;
  /** When the last measurement arrived (null until then). */
  measuredAt: number | null;
}

export function unifiedDiff(previous: string, next: string, fromVersion: number, toVersion: number): string {
  return createTwoFilesPatch(`v${fromVersion}`, `v${toVersion}`, previous, next, '', '', { context: 3 });
}

/** Append the next version of the session's code. */
export function addVersion(
  versions: readonly CodeVersion[],
  draft: CodeDraft,
  at: { turnSeq: number; seat: string; round: number; phase: Phase },
): CodeVersion[] {
  const prev = versions[versions.length - 1];
  const version = (prev?.version ?? 0) + 1;
  return [
    ...versions,
    {
      version,
      ...at,
      language: draft.language,
      code: draft.source,
      diff: prev ? unifiedDiff(prev.code, draft.source, prev.version, version) : null,
      qualityScore: null,
      testPassRate: null,
      metrics: {},
      measuredAt: null,
    },
  ];
}

export function measureVersion(
  versions: readonly CodeVersion[],
  version: number,
  m: Measurement,
  now: number,
): CodeVersion[] {
  return versions.map((v) =>
    v.version === version
      ? {
          ...v,
          qualityScore: m.qualityScore,
          testPassRate: m.testPassRate,
          metrics: m.metrics,
          measuredAt: now,
        }
      : v,
  );
}
