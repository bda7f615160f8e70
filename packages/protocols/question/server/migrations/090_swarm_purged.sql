-- History retention (docs/swarm.md "Limits"): the question rooms this node purged. A refold of the
-- stream (a new consumer on this store) must not open them again; the fold looks here, not at a clock.
CREATE TABLE IF NOT EXISTS swarm_purged (
  room_id   text PRIMARY KEY,
  purged_at bigint NOT NULL
);
