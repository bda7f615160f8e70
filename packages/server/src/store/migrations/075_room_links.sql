-- Issue 28 (agent profiles). A principal a room names without seating it: a tournament's entrants
-- (the arena's match seats are played by the server), a swarm answer's author on this node (a question
-- room folds from the stream; its participants are keys). Profiles count these rooms like seats.
CREATE TABLE IF NOT EXISTS room_links (
  room_id      text NOT NULL,
  principal_id text NOT NULL,
  -- What the room calls the principal: the entrant's name, the participant key it signs with.
  label        text NOT NULL,
  role         text NOT NULL,
  created_at   bigint NOT NULL,
  PRIMARY KEY (room_id, principal_id, label)
);
CREATE INDEX IF NOT EXISTS room_links_principal ON room_links (principal_id);
-- A model call made for a principal outside any seat it holds (a model entrant's match in a
-- server-run tournament): profiles sum these into the principal's usage.
ALTER TABLE driver_calls ADD COLUMN IF NOT EXISTS principal_id text;
CREATE INDEX IF NOT EXISTS driver_calls_principal ON driver_calls (principal_id) WHERE principal_id IS NOT NULL;
