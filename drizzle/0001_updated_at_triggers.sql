-- Contract §4: any change to a registration or anything in its record (sections, travel, legs,
-- scans, badge, consents, guardians, contacts, the person, the event's scan contexts and modules)
-- bumps registrations.updated_at. now() is the transaction start time, which is what the
-- participants sync watermark (modules/participants/sync.ts) relies on.
CREATE OR REPLACE FUNCTION muster_set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registration() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE registrations SET updated_at = now() WHERE id = OLD.registration_id AND updated_at <> now();
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE registrations SET updated_at = now() WHERE id = NEW.registration_id AND updated_at <> now();
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registration_from_leg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE registrations r SET updated_at = now()
    FROM travels t
   WHERE t.id IN (CASE WHEN TG_OP = 'INSERT' THEN NEW.travel_id ELSE OLD.travel_id END,
                  CASE WHEN TG_OP = 'DELETE' THEN OLD.travel_id ELSE NEW.travel_id END)
     AND r.id = t.registration_id AND r.updated_at <> now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registrations_of_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE registrations SET updated_at = now() WHERE person_id = NEW.id AND updated_at <> now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registrations_of_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE registrations SET updated_at = now()
   WHERE event_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.event_id ELSE NEW.event_id END) AND updated_at <> now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_touch_registrations_on_modules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.modules IS DISTINCT FROM OLD.modules THEN
    UPDATE registrations SET updated_at = now() WHERE event_id = NEW.id AND updated_at <> now();
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER registrations_set_updated_at BEFORE UPDATE ON registrations FOR EACH ROW EXECUTE FUNCTION muster_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER people_set_updated_at BEFORE UPDATE ON people FOR EACH ROW EXECUTE FUNCTION muster_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER events_set_updated_at BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION muster_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER series_set_updated_at BEFORE UPDATE ON series FOR EACH ROW EXECUTE FUNCTION muster_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER users_set_updated_at BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION muster_set_updated_at();
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['registration_accommodations','registration_medical','registration_dietary',
    'registration_accessibility','registration_safeguarding','consents','guardians','emergency_contacts',
    'travels','scans'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION muster_touch_registration()', t || '_touch_registration', t);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE TRIGGER travel_legs_touch_registration AFTER INSERT OR UPDATE OR DELETE ON travel_legs FOR EACH ROW EXECUTE FUNCTION muster_touch_registration_from_leg();
--> statement-breakpoint
CREATE TRIGGER people_touch_registrations AFTER UPDATE ON people FOR EACH ROW EXECUTE FUNCTION muster_touch_registrations_of_person();
--> statement-breakpoint
CREATE TRIGGER scan_contexts_touch_registrations AFTER INSERT OR UPDATE OR DELETE ON scan_contexts FOR EACH ROW EXECUTE FUNCTION muster_touch_registrations_of_event();
--> statement-breakpoint
CREATE TRIGGER events_touch_registrations AFTER UPDATE ON events FOR EACH ROW EXECUTE FUNCTION muster_touch_registrations_on_modules();
