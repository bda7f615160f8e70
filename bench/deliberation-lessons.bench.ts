// Lessons search over 100k lessons (issue 11): db8's full-text search (weighted tsvector, GIN,
// websearch_to_tsquery, ts_rank_cd, ts_headline on the page) against a plain ILIKE '%term%' scan
// of the same rows with the same filters, on PGlite and — when a URL is set — on Postgres.
import { randomBytes } from 'node:crypto';
import { searchLessons } from '../packages/protocols/deliberation/server/storage/index.ts';
import { migrate, openStore, postgresDriver, type SqlDriver } from '../packages/server/src/store/index.ts';
import type { BenchRow } from './types.ts';

const AREA = 'deliberation';
const LESSONS = 100_000;
const PG_URL =
  process.env.DB8_BENCH_DATABASE_URL ?? process.env.DB8_TEST_DATABASE_URL ?? process.env.DATABASE_URL;

// A vocabulary of made-up words plus the real ones the queries look for (each in a few % of rows).
const REAL = ['token', 'bucket', 'rate', 'limiter', 'cache', 'retry', 'backoff', 'queue', 'shard', 'replica'];
const SYL = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'zu', 'da', 'fe'];
const VOCAB = [...REAL];
for (const a of SYL) for (const b of SYL) for (const c of SYL) VOCAB.push(`${a}${b}${c}`);

const QUERIES: { fts: string; like: string[] }[] = [
  { fts: 'token bucket', like: ['token', 'bucket'] },
  { fts: '"rate limiter"', like: ['rate limiter'] },
  { fts: 'cache', like: ['cache'] },
  { fts: 'retry backoff', like: ['retry', 'backoff'] },
  { fts: 'kalomi', like: ['kalomi'] },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function fill(db: SqlDriver): Promise<void> {
  // Word k of row i: a deterministic spread over the vocabulary (real words land in ~2% of slots).
  const words = (count: number, salt: number) =>
    `array_to_string(ARRAY(SELECT v.w[1 + ((i * ${salt} + k * 7919 + (i / 7) * k) % v.n)] FROM generate_series(1, ${count}) k), ' ')`;
  for (let from = 0; from < LESSONS; from += 20_000)
    await db.query(
      `INSERT INTO deliberation_lessons (id, debate_id, source, title, problem, solution, domain, category, tier,
         score, created_at, expires_at)
       SELECT gen_random_uuid(), 'bench_' || (i / 5), 'consensus', ${words(6, 31)}, ${words(20, 53)}, ${words(30, 97)},
              (ARRAY['code', 'general', 'security'])[1 + i % 3],
              (ARRAY['pattern', 'security', 'testing', 'best_practice'])[1 + i % 4], (i % 4)::smallint,
              ((i % 1000) / 1000.0)::numeric(5, 4), now(), now() + interval '90 days'
       FROM generate_series($1::int, $2::int) i, (SELECT $3::text[] AS w, array_length($3::text[], 1) AS n) v`,
      [from, Math.min(LESSONS, from + 20_000) - 1, VOCAB],
    );
  await db.exec('ANALYZE deliberation_lessons');
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(i); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

async function measure(driver: string, db: SqlDriver, iterations: number): Promise<BenchRow[]> {
  const t0 = performance.now();
  await fill(db);
  const fillS = (performance.now() - t0) / 1000;
  const now = Date.now();
  const fts = await timeEach(iterations, (i) =>
    searchLessons(db, { q: QUERIES[i % QUERIES.length]!.fts, minScore: 0.2, limit: 20, now }),
  );
  // The peer: every term as a substring of title, problem or solution, same filter, same order and page.
  const like = await timeEach(iterations, (i) => {
    const terms = QUERIES[i % QUERIES.length]!.like;
    const cond = terms
      .map((_, j) => `(title ILIKE $${j + 1} OR problem ILIKE $${j + 1} OR solution ILIKE $${j + 1})`)
      .join(' AND ');
    return db.query(
      `SELECT id, title, score FROM deliberation_lessons
       WHERE ${cond} AND score >= 0.2 AND (expires_at IS NULL OR expires_at > now())
       ORDER BY score DESC, id LIMIT 20`,
      terms.map((t) => `%${t}%`),
    );
  });
  const peer = 'ILIKE %term% scan';
  return [
    {
      area: AREA,
      name: `${driver}: fill ${LESSONS.toLocaleString('en-US')} lessons (tsvector + GIN)`,
      value: fillS,
      unit: 's',
    },
    {
      area: AREA,
      name: `${driver}: lessons search p50 (100k, ranked + snippets)`,
      value: percentile(fts, 50),
      unit: 'ms',
      peer,
      peerValue: percentile(like, 50),
    },
    {
      area: AREA,
      name: `${driver}: lessons search p99 (100k, ranked + snippets)`,
      value: percentile(fts, 99),
      unit: 'ms',
      peer,
      peerValue: percentile(like, 99),
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const lite = await openStore({ memory: true, env: false });
  try {
    rows.push(...(await measure('pglite', lite.db, 100)));
  } finally {
    await lite.close();
  }
  if (!PG_URL) {
    process.stderr.write(
      'bench: deliberation lessons on Postgres skipped: set DB8_TEST_DATABASE_URL or DATABASE_URL\n',
    );
    rows.push({
      area: AREA,
      name: 'postgres: not measured (no DB8_TEST_DATABASE_URL / DATABASE_URL)',
      value: Number.NaN,
      unit: '',
    });
    return rows;
  }
  const schema = `db8_bench_${randomBytes(6).toString('hex')}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const pg = postgresDriver(PG_URL, { schema, max: 2 });
  try {
    await migrate(pg);
    rows.push(...(await measure('postgres', pg, 300)));
  } finally {
    await pg.close();
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
  return rows;
}
