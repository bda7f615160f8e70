import type { DeliberationState, Reflection } from '../../rules/index.ts';
import { stableUuid } from './ids.ts';
import { domainOf, type SessionSource } from './rows.ts';

/**
 * Lessons from a session that reached consensus (upstream's LessonBank.ExtractLessonsFromDebate,
 * made deterministic): the consensus itself, every red-team finding the blue team patched, and
 * every reflexion entry. A session without consensus yields none.
 */

export const LESSON_CATEGORIES = [
  'pattern',
  'anti_pattern',
  'best_practice',
  'optimization',
  'security',
  'refactoring',
  'debugging',
  'architecture',
  'testing',
  'documentation',
] as const;
export type LessonCategory = (typeof LESSON_CATEGORIES)[number];
export const TIERS = ['bronze', 'silver', 'gold', 'platinum'] as const;
export type Tier = (typeof TIERS)[number];

export interface LessonDraft {
  id: string;
  source: 'consensus' | 'adversarial' | 'reflection';
  title: string;
  problem: string;
  solution: string;
  rationale: string;
  domain: string;
  category: LessonCategory;
  score: number;
  tags: string[];
  contributors: string[];
}

// Upstream's keyword categoriser, in its order (the first match wins).
const RULES: [LessonCategory, RegExp][] = [
  ['security', /security|vulnerab/],
  ['optimization', /performance|optimi[sz]e/],
  ['pattern', /pattern|design/],
  ['refactoring', /refactor|clean/],
  ['testing', /test/],
  ['debugging', /debug|error/],
  ['architecture', /architecture|structure/],
];
export function categorize(text: string): LessonCategory {
  const t = text.toLowerCase();
  return RULES.find(([, re]) => re.test(t))?.[0] ?? 'best_practice';
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

export function extractLessons(src: SessionSource): LessonDraft[] {
  const s: DeliberationState = src.state;
  const o = s.outcome;
  if (s.status !== 'completed' || !o?.reachedConsensus || o.winner === null) return [];
  const domain = domainOf(src);
  const c = s.config;
  const tags = [
    c.topology,
    c.coordination,
    c.voting,
    c.task.kind,
    ...(c.task.language ? [c.task.language] : []),
  ];
  const ok = s.turns.filter((t) => t.action.type !== 'failed');
  const contributors = [...new Set(ok.map((t) => t.seat))].sort();
  const winning = s.turns.find((t) => t.seq === o.summarySeq && t.seat === o.winner);
  const solution = o.summary ?? (winning && 'content' in winning.action ? winning.action.content : '');
  const backers = ok.filter(
    (t) => t.round === o.round && t.action.type === 'converge' && t.action.ranking[0] === o.winner,
  );
  const rationale = backers.map((t) => `${t.seat}: ${'content' in t.action ? t.action.content : ''}`);
  const out: LessonDraft[] = [
    {
      id: stableUuid('lesson', src.roomId, 'consensus'),
      source: 'consensus',
      title: clip(`Consensus on ${c.topic}`, 300),
      problem: c.topic,
      solution,
      rationale: rationale.join('\n'),
      domain,
      category: categorize(`${c.topic} ${solution}`),
      score: o.confidence,
      tags,
      contributors,
    },
  ];
  const patches = new Map<string, string[]>();
  for (const t of ok)
    if (t.action.type === 'blue')
      for (const p of t.action.patches) patches.set(p.finding, [...(patches.get(p.finding) ?? []), p.patch]);
  for (const t of ok) {
    if (t.action.type !== 'red') continue;
    for (const f of t.action.findings) {
      const fixes = patches.get(`${t.seat}/${f.id}`) ?? patches.get(f.id);
      if (!fixes) continue;
      out.push({
        id: stableUuid('lesson', src.roomId, 'finding', t.seq, t.seat, f.id),
        source: 'adversarial',
        title: clip(`Risk: ${f.title}`, 300),
        problem: f.evidence,
        solution: fixes.join('\n'),
        rationale: `${f.severity} severity, found by ${t.seat} in round ${t.round}`,
        domain,
        category: 'security',
        score: o.confidence,
        tags: [...tags, f.severity],
        contributors,
      });
    }
  }
  for (const t of ok) {
    const reflections = (t.action as { reflections?: readonly Reflection[] }).reflections ?? [];
    reflections.forEach((r, i) => {
      out.push({
        id: stableUuid('lesson', src.roomId, 'reflection', t.seq, t.seat, i),
        source: 'reflection',
        title: clip(`Reflection: ${r.rootCause}`, 300),
        problem: r.whatWentWrong,
        solution: r.whatToChange,
        rationale: r.rootCause,
        domain,
        category: 'debugging',
        score: r.confidence,
        tags,
        contributors: [t.seat],
      });
    });
  }
  return out;
}
