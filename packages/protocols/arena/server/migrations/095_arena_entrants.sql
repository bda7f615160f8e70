-- Server-run tournaments (docs/arena.md "Outside and person entrants"): which principal claimed an
-- outside or person entrant with the organizer's invitation. Private: read only for the principal
-- itself (its pending matches) and by the runner, which seats it in the entrant's match rooms.
CREATE TABLE IF NOT EXISTS arena_entrants (
  tournament_id text NOT NULL,
  entrant       text NOT NULL,
  principal     text NOT NULL,
  claimed_at    bigint NOT NULL,
  PRIMARY KEY (tournament_id, entrant)
);
CREATE INDEX IF NOT EXISTS arena_entrants_principal ON arena_entrants (principal);
