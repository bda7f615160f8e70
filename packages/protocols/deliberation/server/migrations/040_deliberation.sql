-- Deliberation storage (seed 004, docs/deliberation.md#storage). The first three tables are the
-- seed's schema exactly (columns, types, defaults, named constraints, indexes, trigger, cascades):
-- projections of deliberation rooms, rebuildable from the room log. Unlike 001 they use jsonb and
-- timestamptz because the seed does; nothing here is hashed, the log stays the source of truth.

CREATE TABLE IF NOT EXISTS debate_sessions (
  id                    uuid NOT NULL DEFAULT gen_random_uuid(),
  debate_id             varchar(255) NOT NULL,
  topic                 text NOT NULL,
  status                varchar(50) NOT NULL DEFAULT 'pending',
  topology_type         varchar(50),
  coordination_protocol varchar(50),
  config                jsonb DEFAULT '{}',
  initiated_by          varchar(255),
  created_at            timestamp with time zone DEFAULT NOW(),
  updated_at            timestamp with time zone DEFAULT NOW(),
  completed_at          timestamp with time zone,
  total_rounds          integer DEFAULT 0,
  final_consensus_score decimal(5, 4),
  outcome               jsonb DEFAULT '{}',
  metadata              jsonb DEFAULT '{}',
  CONSTRAINT debate_sessions_pkey PRIMARY KEY (id),
  CONSTRAINT chk_debate_sessions_status
    CHECK (status IN ('pending', 'running', 'paused', 'completed', 'failed', 'cancelled'))
);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_debate_id ON debate_sessions (debate_id);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_status ON debate_sessions (status);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_created_at ON debate_sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_topology ON debate_sessions (topology_type);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_active ON debate_sessions (status)
  WHERE status IN ('pending', 'running', 'paused');
CREATE INDEX IF NOT EXISTS idx_debate_sessions_metadata ON debate_sessions USING gin (metadata);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_config ON debate_sessions USING gin (config);
CREATE INDEX IF NOT EXISTS idx_debate_sessions_debate_status ON debate_sessions (debate_id, status);

CREATE OR REPLACE FUNCTION debate_sessions_set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at = NOW();
  RETURN NEW;
END;
$$;
DROP TRIGGER IF EXISTS trg_debate_sessions_updated_at ON debate_sessions;
CREATE TRIGGER trg_debate_sessions_updated_at BEFORE UPDATE ON debate_sessions
  FOR EACH ROW EXECUTE FUNCTION debate_sessions_set_updated_at();

CREATE TABLE IF NOT EXISTS debate_turns (
  id               uuid NOT NULL DEFAULT gen_random_uuid(),
  session_id       uuid NOT NULL,
  round            integer NOT NULL,
  phase            varchar(50) NOT NULL,
  agent_id         varchar(255) NOT NULL,
  agent_role       varchar(100),
  provider         varchar(100),
  model            varchar(255),
  content          text,
  confidence       decimal(5, 4),
  tool_calls       jsonb DEFAULT '[]',
  test_results     jsonb DEFAULT '{}',
  reflections      jsonb DEFAULT '[]',
  metadata         jsonb DEFAULT '{}',
  created_at       timestamp with time zone DEFAULT NOW(),
  response_time_ms integer,
  CONSTRAINT debate_turns_pkey PRIMARY KEY (id),
  CONSTRAINT debate_turns_session_id_fkey FOREIGN KEY (session_id)
    REFERENCES debate_sessions (id) ON DELETE CASCADE,
  CONSTRAINT chk_debate_turns_phase CHECK (phase IN ('dehallucination', 'self_evolvement', 'proposal',
    'critique', 'review', 'optimization', 'adversarial', 'convergence'))
);
CREATE INDEX IF NOT EXISTS idx_debate_turns_session_id ON debate_turns (session_id);
CREATE INDEX IF NOT EXISTS idx_debate_turns_session_round ON debate_turns (session_id, round);
CREATE INDEX IF NOT EXISTS idx_debate_turns_phase ON debate_turns (phase);
CREATE INDEX IF NOT EXISTS idx_debate_turns_agent ON debate_turns (agent_id);
CREATE INDEX IF NOT EXISTS idx_debate_turns_session_round_phase ON debate_turns (session_id, round, phase);
CREATE INDEX IF NOT EXISTS idx_debate_turns_created_at ON debate_turns (created_at);
CREATE INDEX IF NOT EXISTS idx_debate_turns_reflections ON debate_turns USING gin (reflections)
  WHERE reflections != '[]'::jsonb;
CREATE INDEX IF NOT EXISTS idx_debate_turns_tool_calls ON debate_turns USING gin (tool_calls)
  WHERE tool_calls != '[]'::jsonb;
CREATE INDEX IF NOT EXISTS idx_debate_turns_metadata ON debate_turns USING gin (metadata);

CREATE TABLE IF NOT EXISTS code_versions (
  id                 uuid NOT NULL DEFAULT gen_random_uuid(),
  session_id         uuid NOT NULL,
  turn_id            uuid,
  language           varchar(50),
  code               text NOT NULL,
  version_number     integer NOT NULL,
  quality_score      decimal(5, 4),
  test_pass_rate     decimal(5, 4),
  metrics            jsonb DEFAULT '{}',
  diff_from_previous text,
  created_at         timestamp with time zone DEFAULT NOW(),
  CONSTRAINT code_versions_pkey PRIMARY KEY (id),
  CONSTRAINT code_versions_session_id_fkey FOREIGN KEY (session_id)
    REFERENCES debate_sessions (id) ON DELETE CASCADE,
  CONSTRAINT code_versions_turn_id_fkey FOREIGN KEY (turn_id)
    REFERENCES debate_turns (id) ON DELETE SET NULL,
  CONSTRAINT uq_code_versions_session_version UNIQUE (session_id, version_number)
);
CREATE INDEX IF NOT EXISTS idx_code_versions_session_id ON code_versions (session_id);
CREATE INDEX IF NOT EXISTS idx_code_versions_turn_id ON code_versions (turn_id);
CREATE INDEX IF NOT EXISTS idx_code_versions_session_version ON code_versions (session_id, version_number);
CREATE INDEX IF NOT EXISTS idx_code_versions_language ON code_versions (language);
CREATE INDEX IF NOT EXISTS idx_code_versions_quality ON code_versions (quality_score)
  WHERE quality_score IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_code_versions_test_pass_rate ON code_versions (test_pass_rate)
  WHERE test_pass_rate IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_code_versions_metrics ON code_versions USING gin (metrics);

-- db8's own: lessons extracted from sessions that reached consensus (upstream's LessonBank, kept
-- in SQL). Not a projection: use counts and tiers change with use. A rebuilt session keeps its
-- lessons (same deterministic ids; session_id is set null while the session row is gone).
CREATE TABLE IF NOT EXISTS deliberation_lessons (
  id             uuid PRIMARY KEY,
  session_id     uuid REFERENCES debate_sessions (id) ON DELETE SET NULL,
  debate_id      varchar(255) NOT NULL,
  source         varchar(20) NOT NULL CHECK (source IN ('consensus', 'adversarial', 'reflection')),
  title          text NOT NULL,
  problem        text NOT NULL,
  solution       text NOT NULL,
  rationale      text NOT NULL DEFAULT '',
  domain         varchar(80) NOT NULL,
  category       varchar(30) NOT NULL CHECK (category IN ('pattern', 'anti_pattern', 'best_practice',
    'optimization', 'security', 'refactoring', 'debugging', 'architecture', 'testing', 'documentation')),
  -- 0 bronze, 1 silver, 2 gold, 3 platinum (upstream's LessonTier).
  tier           smallint NOT NULL DEFAULT 0 CHECK (tier BETWEEN 0 AND 3),
  score          decimal(5, 4) NOT NULL CHECK (score BETWEEN 0 AND 1),
  tags           text[] NOT NULL DEFAULT '{}',
  contributors   text[] NOT NULL DEFAULT '{}',
  view_count     integer NOT NULL DEFAULT 0,
  apply_count    integer NOT NULL DEFAULT 0,
  success_count  integer NOT NULL DEFAULT 0,
  failure_count  integer NOT NULL DEFAULT 0,
  last_applied_at timestamp with time zone,
  created_at     timestamp with time zone NOT NULL,
  updated_at     timestamp with time zone NOT NULL DEFAULT NOW(),
  expires_at     timestamp with time zone,
  -- Weighted so a title hit outranks a body hit (ts_rank_cd reads the weights).
  search         tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', problem), 'B') ||
    setweight(to_tsvector('english', solution || ' ' || rationale), 'C')
  ) STORED
);
CREATE INDEX IF NOT EXISTS idx_deliberation_lessons_search ON deliberation_lessons USING gin (search);
CREATE INDEX IF NOT EXISTS idx_deliberation_lessons_debate ON deliberation_lessons (debate_id);
CREATE INDEX IF NOT EXISTS idx_deliberation_lessons_filters ON deliberation_lessons (domain, category, tier);
CREATE INDEX IF NOT EXISTS idx_deliberation_lessons_expires ON deliberation_lessons (expires_at)
  WHERE expires_at IS NOT NULL;
