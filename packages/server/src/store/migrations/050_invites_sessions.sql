-- Issue 14. An invite link is a bounded credential: each one has a row counting its uses (the
-- invite JWT's jti is the id), and a join takes a use atomically; expired or used-up invites are refused.
CREATE TABLE IF NOT EXISTS invites (
  id         text PRIMARY KEY,
  room_id    text NOT NULL,
  seat       text,
  max_uses   integer NOT NULL CHECK (max_uses > 0),
  uses       integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  created_by text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS invites_expires_idx ON invites (expires_at);

-- Logged-out sessions: every token of the login (refreshes carry its sid) is refused until
-- expires_at, after which none of them could verify anyway and the row may be purged.
CREATE TABLE IF NOT EXISTS revoked_sessions (
  sid          text PRIMARY KEY,
  principal_id text NOT NULL,
  revoked_at   bigint NOT NULL,
  expires_at   bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS revoked_sessions_expires_idx ON revoked_sessions (expires_at);
