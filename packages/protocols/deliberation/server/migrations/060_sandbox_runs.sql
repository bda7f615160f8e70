-- Code measurements started and not yet recorded (protocols/deliberation/sandbox-runs.ts): a row
-- is written before a version runs in the sandbox and removed once its measurement is recorded.
-- A row left behind means the server stopped during the run; the version is then recorded as an
-- interrupted (failed) measurement instead of being run again, so a version that brings the
-- server down cannot do it twice.
CREATE TABLE IF NOT EXISTS deliberation_sandbox_runs (
  room_id    text NOT NULL,
  version    integer NOT NULL,
  started_at bigint NOT NULL,
  CONSTRAINT deliberation_sandbox_runs_pkey PRIMARY KEY (room_id, version)
);
