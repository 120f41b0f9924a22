-- Participant JSON cache, what a change replaced never comes back (docs/performance.md "Participant
-- JSON cache"; docs/privacy.md "Erasure"). Migration 0026 deleted a registration's cached texts when
-- its updated_at changed or it was deleted; a list read that had built a text from a snapshot taken
-- before the change could still store it just after (no row left to conflict with), so an erased
-- person's name could stay in the table until the next read of that tier, and for a deleted
-- registration for good. Now the change leaves, for each of the four tiers ('-', 'p', 's', 'ps':
-- participants.cache.ts cacheTier), a fence: a row with no text (j = '', version = '') stamped with
-- the registration's new updated_at (for a deletion, the time of the deletion). A read stores a text
-- only over a row stamped no later than the text's updated_at (participants.cache.ts), so a text
-- built before the change is refused: either the read's row was there first and the change's
-- INSERT … ON CONFLICT overwrites it, or the fence was, and the read's INSERT … ON CONFLICT (which
-- waits for the writing transaction and then sees its row) leaves it. The fence holds no personal
-- data; the next read of a tier replaces it with the current text. Fences of deleted registrations
-- and texts left stale are deleted by the daily retention job after a day (retention.service.ts).
-- The INSERT is in the trigger's own PL/pgSQL body, whose plan is cached; as a call to an SQL
-- function it was planned again on every row (≈ 2x the trigger's time, measured on 10,000 rows).
CREATE OR REPLACE FUNCTION muster_drop_participant_json() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rid integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  -- No read can build a deleted registration again: stamped later than any text of it.
  stamp timestamptz := CASE WHEN TG_OP = 'DELETE' THEN GREATEST(clock_timestamp(), OLD.updated_at)
                         ELSE NEW.updated_at END;
BEGIN
  INSERT INTO participant_json AS c (registration_id, tier, version, updated_at, j)
  VALUES (rid, '-', '', stamp, ''), (rid, 'p', '', stamp, ''), (rid, 's', '', stamp, ''), (rid, 'ps', '', stamp, '')
  ON CONFLICT (registration_id, tier) DO UPDATE
    SET version = '', j = '', updated_at = GREATEST(c.updated_at, EXCLUDED.updated_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Texts stored by the race above before this migration: not current, so never served; deleted.
DELETE FROM participant_json c
 WHERE NOT EXISTS (SELECT 1 FROM registrations r WHERE r.id = c.registration_id AND r.updated_at = c.updated_at);
