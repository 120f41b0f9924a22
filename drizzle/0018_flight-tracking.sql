CREATE TABLE "flight_tracking_usage" (
	"bucket" text PRIMARY KEY NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"until" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "travel_leg_tracking" (
	"leg_id" integer PRIMARY KEY NOT NULL,
	"last_tracked_at" timestamp(6) with time zone,
	"landed_notified_at" timestamp(6) with time zone,
	"last_result" text
);
--> statement-breakpoint
ALTER TABLE "scan_feed" ALTER COLUMN "scan_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_feed" ALTER COLUMN "scan_context_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "travel_leg_tracking" ADD CONSTRAINT "travel_leg_tracking_leg_id_travel_legs_id_fk" FOREIGN KEY ("leg_id") REFERENCES "public"."travel_legs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written. A leg whose flight or departure changes (a participant corrects a typo, a staff
-- edit) drops what was tracked for the old flight: its live fields and its tracking row, so the
-- tracking job starts again and a landing of the new flight is announced (docs/travel.md "Live tracking").
CREATE OR REPLACE FUNCTION muster_reset_leg_tracking() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.flight_code IS DISTINCT FROM OLD.flight_code OR NEW.departure_time IS DISTINCT FROM OLD.departure_time THEN
    NEW.live_status := NULL;
    NEW.live_departure_time := NULL;
    NEW.live_arrival_time := NULL;
    DELETE FROM travel_leg_tracking WHERE leg_id = OLD.id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER travel_legs_reset_tracking BEFORE UPDATE OF flight_code, departure_time ON travel_legs FOR EACH ROW EXECUTE FUNCTION muster_reset_leg_tracking();
