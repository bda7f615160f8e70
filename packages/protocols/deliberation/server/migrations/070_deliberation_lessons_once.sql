-- Lessons stored once (issue 24). A lesson is known by its content: the same source, domain,
-- title, problem and solution from another session (or another seat of the same session) is the
-- same lesson, upserted into one row. Rows stored twice before this are merged into the oldest
-- (counters summed, contributors united, the best score and tier, the later expiry).
ALTER TABLE deliberation_lessons ADD COLUMN IF NOT EXISTS content_key text
  GENERATED ALWAYS AS (md5(source || '|' || domain || '|' || title || '|' || problem || '|' || solution)) STORED;

UPDATE deliberation_lessons l SET
  view_count = m.views, apply_count = m.applied, success_count = m.succeeded, failure_count = m.failed,
  last_applied_at = m.last_applied_at, score = m.score, tier = m.tier, expires_at = m.expires_at,
  contributors = ARRAY(SELECT DISTINCT c FROM deliberation_lessons d, unnest(d.contributors) c
                       WHERE d.content_key = l.content_key ORDER BY c)
FROM (
  SELECT content_key, sum(view_count) AS views, sum(apply_count) AS applied,
         sum(success_count) AS succeeded, sum(failure_count) AS failed,
         max(last_applied_at) AS last_applied_at, max(score) AS score, max(tier) AS tier,
         CASE WHEN bool_or(expires_at IS NULL) THEN NULL ELSE max(expires_at) END AS expires_at,
         (array_agg(id ORDER BY created_at, id))[1] AS keeper
  FROM deliberation_lessons GROUP BY content_key HAVING count(*) > 1
) m
WHERE l.id = m.keeper;

DELETE FROM deliberation_lessons l
USING (SELECT content_key, (array_agg(id ORDER BY created_at, id))[1] AS keeper
       FROM deliberation_lessons GROUP BY content_key HAVING count(*) > 1) m
WHERE l.content_key = m.content_key AND l.id <> m.keeper;

CREATE UNIQUE INDEX IF NOT EXISTS idx_deliberation_lessons_content ON deliberation_lessons (content_key);

-- Lessons given to a session (its config's `lessons`) whose use has been counted: one row per
-- session and lesson, so a session's end counts each lesson once however often it is projected.
CREATE TABLE IF NOT EXISTS deliberation_lesson_uses (
  debate_id   varchar(255) NOT NULL,
  lesson_id   uuid NOT NULL REFERENCES deliberation_lessons (id) ON DELETE CASCADE,
  success     boolean NOT NULL,
  recorded_at timestamp with time zone NOT NULL,
  CONSTRAINT deliberation_lesson_uses_pkey PRIMARY KEY (debate_id, lesson_id)
);
