-- Debate's research cache (seed 000, "research_cache (shared across participants)"; docs/debate.md,
-- "Research"): each page a room's debaters fetched with the research tool, once per (room, url),
-- with the sha256 of the body as fetched and its text snapshot, against which fact-checkers check
-- quoted citations.
CREATE TABLE IF NOT EXISTS debate_research_cache (
  room_id      text NOT NULL,
  url          text NOT NULL,
  final_url    text NOT NULL,
  sha256       text NOT NULL,
  status       integer NOT NULL,
  content_type text NOT NULL,
  title        text,
  bytes        integer NOT NULL,
  text         text NOT NULL,
  fetched_at   bigint NOT NULL,
  fetched_by   text NOT NULL,
  principal    text,
  PRIMARY KEY (room_id, url)
);
