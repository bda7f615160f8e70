-- Debate's dead letters (seed 000, "DLQ"; docs/debate.md, "Dead letters"): submissions the room
-- refused for their signature or their deadline, with the reason. Nothing refused is in the room
-- log, so this is the only trace; sealed to the author's seat and admins, listed for the moderator.
CREATE TABLE IF NOT EXISTS debate_dead_letters (
  id          bigserial PRIMARY KEY,
  room_id     text NOT NULL,
  seat        text NOT NULL,
  principal   text,
  code        text NOT NULL,
  message     text NOT NULL,
  action_json text NOT NULL,
  at          bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS debate_dead_letters_room ON debate_dead_letters (room_id, id);
