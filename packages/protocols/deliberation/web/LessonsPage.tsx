import {
  Badge,
  errorText,
  getSession,
  Link,
  signInHref,
  useApiQuery,
  useCredentials,
  useNavigate,
  useSearchParams,
} from '@db8/web/kit';
import { type FormEvent, useEffect, useState } from 'react';
import { z } from 'zod';
import { deliberationKeys } from './keys.ts';

// Lessons search over the server's full-text route (GET /v1/deliberation/lessons): websearch
// syntax, domain/category/tier/minimum-score filters, ranked hits with the matched words
// highlighted and their use counts. The query lives in the URL, so a search is a link.
// Highlights arrive as pieces, never as HTML.

/** The server's lists (storage/lessons-extract.ts); a unit test keeps them equal. */
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
export const TIERS = ['bronze', 'silver', 'gold', 'platinum'] as const;

/** The route's reply as this page reads it (the server sends more fields; they pass through). */
const LessonsReplySchema = z.object({
  hits: z.array(
    z.object({
      lesson: z
        .object({
          id: z.string(),
          debateId: z.string(),
          source: z.string(),
          title: z.string(),
          domain: z.string(),
          category: z.string(),
          tier: z.string(),
          score: z.number(),
          solution: z.string(),
          uses: z.object({ applied: z.number(), succeeded: z.number() }).optional(),
        })
        .loose(),
      rank: z.number().optional(),
      highlights: z.array(z.object({ text: z.string(), hit: z.boolean() })).optional(),
    }),
  ),
});

const FIELDS = ['q', 'domain', 'category', 'tier', 'minScore'] as const;
type Query = Record<(typeof FIELDS)[number], string>;

function readQuery(search: string): Query {
  const p = new URLSearchParams(search);
  return {
    q: p.get('q') ?? '',
    domain: p.get('domain') ?? '',
    category: p.get('category') ?? '',
    tier: p.get('tier') ?? '',
    minScore: p.get('minScore') ?? '',
  };
}

function toSearch(q: Query): string {
  const p = new URLSearchParams();
  for (const f of FIELDS) if (q[f].trim()) p.set(f, q[f].trim());
  return p.toString();
}

export function LessonsPage() {
  useCredentials();
  const navigate = useNavigate();
  const search = new URLSearchParams(useSearchParams()).toString();
  const asked = readQuery(search);
  const [form, setForm] = useState<Query>(asked);
  const token = getSession()?.token ?? null;
  const qs = toSearch(asked);
  // Back and forward change the URL: the form follows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `qs` is the URL's query; `search` parses to it.
  useEffect(() => setForm(readQuery(search)), [qs]);

  const read = useApiQuery(
    deliberationKeys.lessons(qs),
    `/v1/deliberation/lessons${qs ? `?${qs}` : ''}`,
    LessonsReplySchema,
    { enabled: token !== null },
  );
  const hits = read.data?.hits ?? null;
  const error = read.error ? errorText(read.error) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const s = toSearch(form);
    void navigate({ to: '/deliberation/lessons', search: Object.fromEntries(new URLSearchParams(s)) });
  };
  const set = (f: keyof Query) => (e: { target: { value: string } }) =>
    setForm({ ...form, [f]: e.target.value });

  return (
    <div className="delib-lessons">
      <h1>Lessons</h1>
      <p className="muted small">
        What deliberations that reached consensus taught: the consensus, patched red-team findings,
        reflections. Words, "a phrase", OR and -not work as in a web search.
      </p>
      <form className="card delib-lesson-form" onSubmit={submit} aria-label="search lessons">
        <div className="field grow">
          <label htmlFor="lq">search</label>
          <input id="lq" type="search" value={form.q} onChange={set('q')} placeholder="rate limiter -redis" />
        </div>
        <div className="field">
          <label htmlFor="ldomain">domain</label>
          <input id="ldomain" value={form.domain} onChange={set('domain')} placeholder="any" />
        </div>
        <div className="field">
          <label htmlFor="lcategory">category</label>
          <select id="lcategory" value={form.category} onChange={set('category')}>
            <option value="">any</option>
            {LESSON_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c.replace('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="ltier">tier</label>
          <select id="ltier" value={form.tier} onChange={set('tier')}>
            <option value="">any</option>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="lminscore">minimum score</label>
          <input
            id="lminscore"
            type="number"
            min={0}
            max={1}
            step="any"
            value={form.minScore}
            onChange={set('minScore')}
            placeholder="0–1"
          />
        </div>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      {!token ? (
        <p className="muted">
          <Link to={signInHref(location.pathname)}>Sign in</Link> to search lessons.
        </p>
      ) : error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : hits === null ? (
        <p className="muted">Loading…</p>
      ) : hits.length === 0 ? (
        <p className="muted" data-testid="lessons-none">
          No lesson matches.
        </p>
      ) : (
        <ol className="delib-hits" data-testid="lessons-hits">
          {hits.map((h) => (
            <li key={h.lesson.id} className="card" data-testid="lesson-hit">
              <h3>{h.lesson.title}</h3>
              <p className="delib-snippet" data-testid="lesson-snippet">
                {(h.highlights ?? [{ text: h.lesson.solution, hit: false }]).map((p, i) =>
                  p.hit ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one immutable snippet.
                    <mark key={i}>{p.text}</mark>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one immutable snippet.
                    <span key={i}>{p.text}</span>
                  ),
                )}
              </p>
              <p className="small">
                <Badge tone="info">{h.lesson.category.replace('_', ' ')}</Badge>{' '}
                <Badge tone="muted">{h.lesson.tier}</Badge> <Badge tone="muted">{h.lesson.domain}</Badge>{' '}
                <span className="muted">
                  {h.lesson.source} · score {Math.round(h.lesson.score * 100)}%
                  {h.rank !== undefined ? ` · rank ${h.rank.toFixed(3)}` : ''}
                  {h.lesson.uses
                    ? ` · used ${h.lesson.uses.applied}× (${h.lesson.uses.succeeded} succeeded)`
                    : ''}{' '}
                  ·{' '}
                </span>
                <Link to={`/rooms/${encodeURIComponent(h.lesson.debateId)}`}>from {h.lesson.debateId}</Link>
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
