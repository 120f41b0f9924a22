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
CREATE OR REPLACE FUNCTION muster_fence_participant_json(p_id integer, p_at timestamptz) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO participant_json (registration_id, tier, version, updated_at, j)
  SELECT p_id, t, '', p_at, '' FROM unnest(ARRAY['-', 'p', 's', 'ps']) t
  ON CONFLICT (registration_id, tier) DO UPDATE
    SET version = '', j = '', updated_at = GREATEST(participant_json.updated_at, EXCLUDED.updated_at)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_drop_participant_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- No read can build a deleted registration again: stamped later than any text of it.
    PERFORM muster_fence_participant_json(OLD.id, GREATEST(clock_timestamp(), OLD.updated_at));
  ELSE
    PERFORM muster_fence_participant_json(NEW.id, NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Texts stored by the race above before this migration: not current, so never served; deleted.
DELETE FROM participant_json c
 WHERE NOT EXISTS (SELECT 1 FROM registrations r WHERE r.id = c.registration_id AND r.updated_at = c.updated_at);
