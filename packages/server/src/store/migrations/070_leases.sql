-- Issue 23. Work a cluster must do exactly once (a swarm node's fold of its JetStream stream) is
-- done by the process holding its lease: a row per lease, taken when free or expired and renewed by
-- its holder. Expiry is judged by the database's clock, so the processes' clocks never disagree.
CREATE TABLE IF NOT EXISTS leases (
  name       text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL
);
