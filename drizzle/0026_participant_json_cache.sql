-- Participant JSON cache (issue 32 item 1; docs/performance.md "Participant JSON cache"): the text
-- the sync list's serializer built for a registration, per visibility tier, kept with the
-- registration's updated_at at the time. The list serves a row from here only when its updated_at
-- is still the registration's (every change to a registration's record bumps it, migration 0001)
-- and its `version` is the serializer's current one; otherwise it builds the row again and stores
-- it. Filled by reads, not by writes. UNLOGGED: a cache, emptied after a crash, kept out of the
-- WAL. No foreign key (its check would lock each registration row a read fills). A registration's
-- rows are deleted when its updated_at changes or it is deleted (the triggers below), so what a
-- change or an erasure replaced does not stay here; a list read that built a row from a snapshot
-- taken before such a change may still store it afterwards, under the old updated_at, where it is
-- never served and is replaced by the next read of that tier.
CREATE UNLOGGED TABLE IF NOT EXISTS "participant_json" (
  "registration_id" integer NOT NULL,
  "tier" text NOT NULL,
  "version" text NOT NULL,
  "updated_at" timestamp(6) with time zone NOT NULL,
  "j" text NOT NULL,
  PRIMARY KEY ("registration_id", "tier")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_drop_participant_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM participant_json WHERE registration_id = OLD.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER registrations_drop_participant_json AFTER DELETE ON registrations
  FOR EACH ROW EXECUTE FUNCTION muster_drop_participant_json();
--> statement-breakpoint
CREATE TRIGGER registrations_stale_participant_json AFTER UPDATE ON registrations
  FOR EACH ROW WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at)
  EXECUTE FUNCTION muster_drop_participant_json();
