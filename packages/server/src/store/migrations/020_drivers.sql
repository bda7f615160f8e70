-- Drivers (docs/drivers.md): which seats of a room the server plays, and every model call they made.
-- No key is ever stored: a driver names a provider profile; keys come from the environment.
CREATE TABLE IF NOT EXISTS room_drivers (
  room_id text NOT NULL,
  seat text NOT NULL,
  spec jsonb NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (room_id, seat)
);
CREATE TABLE IF NOT EXISTS driver_calls (
  id bigserial PRIMARY KEY,
  room_id text NOT NULL,
  seat text NOT NULL,
  decision text NOT NULL,
  ok boolean NOT NULL,
  error_code text,
  error_message text,
  acted_seq integer,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  cost_usd double precision,
  record jsonb,
  created_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS driver_calls_room ON driver_calls (room_id, id);
CREATE TABLE IF NOT EXISTS room_driver_budgets (
  room_id text PRIMARY KEY,
  limits jsonb NOT NULL,
  created_at bigint NOT NULL
);
