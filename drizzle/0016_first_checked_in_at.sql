ALTER TABLE "registrations" ADD COLUMN "first_checked_in_at" timestamp(6) with time zone;--> statement-breakpoint
-- Hand-written. registrations.first_checked_in_at: the earliest scanned_at of the registration's
-- scans in a checks_in context (NULL: never checked in), for the staff table's sort by check-in
-- (docs/staff-dashboard.md), which otherwise aggregated every scan of the event on each page.
-- Kept exact by the triggers below: a scan inserted, deleted or changed, and a context's checks_in
-- switched. The scans trigger already updated the registration's row for updated_at (contract §4);
-- it now sets the column in that same UPDATE, so a scan writes nothing it did not write before.
CREATE OR REPLACE FUNCTION muster_first_check_in(p_registration_id integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT min(s.scanned_at) FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in
   WHERE s.registration_id = p_registration_id
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registration_from_scan() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- The old row was the first check-in: the next one (or none) takes its place. (An AFTER trigger
    -- sees the statement's result, so the new row of an UPDATE is already counted.)
    UPDATE registrations
       SET first_checked_in_at = CASE WHEN first_checked_in_at = OLD.scanned_at
                                      THEN muster_first_check_in(id) ELSE first_checked_in_at END
     WHERE id = OLD.registration_id AND (updated_at <> now() OR first_checked_in_at = OLD.scanned_at);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE registrations r
       SET first_checked_in_at = CASE WHEN sc.checks_in AND (r.first_checked_in_at IS NULL
                                        OR r.first_checked_in_at > NEW.scanned_at)
                                      THEN NEW.scanned_at ELSE r.first_checked_in_at END
      FROM scan_contexts sc
     WHERE r.id = NEW.registration_id AND sc.id = NEW.scan_context_id
       AND (r.updated_at <> now()
            OR (sc.checks_in AND (r.first_checked_in_at IS NULL OR r.first_checked_in_at > NEW.scanned_at)));
  END IF;
  -- registrations_set_updated_at stamps updated_at = now() on every UPDATE above.
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_first_check_ins_of_context() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only registrations scanned in this context can change; each one's first check-in computed once.
  UPDATE registrations r SET first_checked_in_at = f.at
    FROM (SELECT d.id, muster_first_check_in(d.id) AS at
            FROM (SELECT DISTINCT s.registration_id AS id FROM scans s WHERE s.scan_context_id = NEW.id) d) f
   WHERE r.id = f.id AND r.first_checked_in_at IS DISTINCT FROM f.at;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER scans_touch_registration ON scans;
--> statement-breakpoint
CREATE TRIGGER scans_touch_registration AFTER INSERT OR UPDATE OR DELETE ON scans
  FOR EACH ROW EXECUTE FUNCTION muster_touch_registration_from_scan();
--> statement-breakpoint
CREATE TRIGGER scan_contexts_first_check_ins AFTER UPDATE OF checks_in ON scan_contexts
  FOR EACH ROW WHEN (OLD.checks_in IS DISTINCT FROM NEW.checks_in)
  EXECUTE FUNCTION muster_first_check_ins_of_context();
--> statement-breakpoint
-- Existing data. The registrations' records do not change, so updated_at stays as it is (no
-- client re-downloads them in its next delta sync).
ALTER TABLE registrations DISABLE TRIGGER registrations_set_updated_at;
--> statement-breakpoint
UPDATE registrations r SET first_checked_in_at = muster_first_check_in(r.id)
 WHERE r.id IN (SELECT DISTINCT s.registration_id FROM scans s);
--> statement-breakpoint
ALTER TABLE registrations ENABLE TRIGGER registrations_set_updated_at;
