-- db8 schema v1. Plain SQL that runs unchanged on PGlite and any Postgres (Supabase included):
-- no extensions, no superuser features, unqualified names (the connection's search_path decides).
-- JSON is stored as canonical text (RFC 8785), never jsonb: leaf hashes are over exact bytes.
-- Times are unix milliseconds in bigint.

CREATE TABLE IF NOT EXISTS rooms (
  id               text PRIMARY KEY,
  protocol         text NOT NULL,
  protocol_version integer NOT NULL,
  config_json      text NOT NULL,
  title            text,
  created_by       text,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- The room's secret seed (hex). Only its sha256 is public (genesis) until the close entry.
  seed             text NOT NULL,
  head_seq         integer NOT NULL DEFAULT -1,
  -- Next instant protocol.tick has work (protocol.deadline); the timer watcher polls this.
  deadline_at      bigint,
  closed_at        bigint
);
CREATE INDEX IF NOT EXISTS rooms_deadline_idx ON rooms (deadline_at) WHERE status = 'open' AND deadline_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rooms_created_idx ON rooms (created_at DESC, id DESC);

CREATE TABLE IF NOT EXISTS seats (
  room_id      text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  seat         text NOT NULL,
  role         text NOT NULL,
  ord          integer NOT NULL,
  principal_id text,
  joined_seq   integer,
  joined_at    bigint,
  PRIMARY KEY (room_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_principal_idx ON seats (principal_id) WHERE principal_id IS NOT NULL;

-- The append-only log. (room_id, seq) is the serialisation point between server processes.
CREATE TABLE IF NOT EXISTS entries (
  room_id     text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  seq         integer NOT NULL CHECK (seq >= 0),
  ts          bigint NOT NULL,
  kind        text NOT NULL,
  actor       text NOT NULL,
  public_json text NOT NULL,
  -- canonical {payload, salt} of a non-public entry; NULL for public entries.
  sealed_json text,
  leaf_hash   text NOT NULL,
  PRIMARY KEY (room_id, seq)
);

-- Derived state every N entries, so a room loads from a snapshot plus a short tail.
CREATE TABLE IF NOT EXISTS snapshots (
  room_id    text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  seq        integer NOT NULL,
  state_hash text NOT NULL,
  body_json  text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (room_id, seq)
);

-- Signed tree heads (C2SP signed notes) over the room's log.
CREATE TABLE IF NOT EXISTS checkpoints (
  room_id    text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  size       integer NOT NULL CHECK (size > 0),
  root_hash  text NOT NULL,
  note       text NOT NULL,
  milestone  text,
  created_at bigint NOT NULL,
  PRIMARY KEY (room_id, size)
);

CREATE TABLE IF NOT EXISTS principals (
  id           text PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('agent', 'person', 'admin', 'system')),
  display_name text NOT NULL,
  meta_json    text NOT NULL DEFAULT '{}',
  created_at   bigint NOT NULL,
  disabled_at  bigint
);

CREATE TABLE IF NOT EXISTS principal_keys (
  fingerprint  text PRIMARY KEY,
  principal_id text NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  key_type     text NOT NULL,
  public_key   text NOT NULL,
  label        text,
  created_at   bigint NOT NULL,
  revoked_at   bigint
);
CREATE INDEX IF NOT EXISTS principal_keys_principal_idx ON principal_keys (principal_id);

-- Only a hash of each key is kept; the secret is shown once at creation.
CREATE TABLE IF NOT EXISTS api_keys (
  id           text PRIMARY KEY,
  principal_id text NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  key_hash     text NOT NULL UNIQUE,
  prefix       text NOT NULL,
  scopes_json  text NOT NULL DEFAULT '[]',
  created_at   bigint NOT NULL,
  expires_at   bigint,
  revoked_at   bigint,
  last_used_at bigint
);
CREATE INDEX IF NOT EXISTS api_keys_principal_idx ON api_keys (principal_id);

-- Single-use challenges (SSH login, invites): consumed atomically, with a TTL and an audience.
CREATE TABLE IF NOT EXISTS nonces (
  nonce        text PRIMARY KEY,
  audience     text NOT NULL,
  principal_id text,
  created_at   bigint NOT NULL,
  expires_at   bigint NOT NULL,
  used_at      bigint
);
CREATE INDEX IF NOT EXISTS nonces_expires_idx ON nonces (expires_at);

-- A retried action (same client nonce or turn token, per room and seat) gets its first ack back.
CREATE TABLE IF NOT EXISTS idempotency (
  room_id      text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  seat         text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  seq          integer NOT NULL,
  ts           bigint NOT NULL,
  PRIMARY KEY (room_id, seat, key)
);
